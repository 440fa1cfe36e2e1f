'use client';
// The verify form's payer: picked from the payer directory, or typed (name and payer id) for a payer it does not
// list. A payer id the directory does not list, filled in from a record, shows the typed fields too.
import { useState } from 'react';
import { findPayerName } from '@/lib/eligibility/payer-directory';
import { OTHER_PAYER, PayerOptions } from '@/components/eligibility/payer-options';
import { FieldIssue, TextField } from '@/components/form-field';

type Payer = { payerId: string; payerName: string };

export function PayerField({
  payerId,
  payerName,
  issues,
  onChange,
}: Payer & { issues: Record<string, string>; onChange: (payer: Payer) => void }) {
  const [mode, setMode] = useState<'directory' | 'other'>('directory');
  const listed = findPayerName(payerId) !== null;
  const showOther = mode === 'other' || (!!payerId && !listed);

  function pick(value: string) {
    if (value === OTHER_PAYER) {
      onChange({ payerId: '', payerName: '' });
      setMode('other');
      return;
    }
    const name = findPayerName(value);
    setMode('directory');
    if (name !== null) onChange({ payerId: value, payerName: name });
  }

  return (
    <>
      <label htmlFor="verify-payer">Payer</label>
      <select
        id="verify-payer"
        value={showOther ? OTHER_PAYER : listed ? payerId : ''}
        onChange={(e) => pick(e.target.value)}
        aria-invalid={issues.payerName || issues.payerId ? true : undefined}
        aria-describedby={issues.payerName ? 'verify-payerName-error' : undefined}
      >
        <PayerOptions other="enter its name and payer id" />
      </select>
      {showOther ? null : <FieldIssue id="verify-payerName" issue={issues.payerName} />}
      {showOther ? (
        <>
          <TextField
            id="verify-payerName"
            label="Payer name"
            value={payerName}
            onChange={(value) => onChange({ payerId, payerName: value })}
            issue={issues.payerName}
          />
          <TextField
            id="verify-payerId"
            label="Payer id"
            value={payerId}
            onChange={(value) => onChange({ payerId: value, payerName })}
            issue={issues.payerId}
            hint="The electronic payer id on the card or from the clearinghouse"
          />
        </>
      ) : null}
    </>
  );
}
