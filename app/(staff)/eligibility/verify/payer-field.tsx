'use client';
// The verify form's payer: picked from the payer directory, or typed (name and payer id) for a payer it does not
// list. A payer id the directory does not list, filled in from a record, shows the typed fields too.
import { useState } from 'react';
import { findPayerName, PAYER_DIRECTORY } from '@/lib/eligibility/payer-directory';
import { TextField } from '@/components/form-field';

const OTHER_PAYER = '__other';

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
        <option value="" disabled>
          Choose the payer…
        </option>
        {PAYER_DIRECTORY.map((p) => (
          <option key={p.payerId} value={p.payerId}>
            {p.name} ({p.payerId})
          </option>
        ))}
        <option value={OTHER_PAYER}>Another payer (enter its name and payer id)</option>
      </select>
      {!showOther && issues.payerName ? (
        <div id="verify-payerName-error" className="error">
          {issues.payerName}
        </div>
      ) : null}
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
