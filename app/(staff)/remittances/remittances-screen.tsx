'use client';
// The remittance list and the upload form. The file is read in the browser and sent as JSON `{ x12 }` (the
// route takes that or multipart); the answer says per 835 whether it was posted or was a copy of one already
// posted (nothing changes then), and links to it. Big ERAs still posting in the background show above the list.
import { useCallback, useState, type FormEvent } from 'react';
import Link from 'next/link';
import type { z } from 'zod';
import { Form } from '@/components/form';
import type { UploadResult } from '@/lib/remittances/endpoints';
import type { RemittanceList } from '@/lib/remittances/remittance-view';
import { apiFetch } from '@/components/api-fetch';
import { Field } from '@/components/form-field';
import { useDateFormat } from '@/components/billing/use-date-format';
import { formatDollars } from '@/components/billing/format';
import { useApiRead } from '@/components/billing/use-api-read';
import { DataTable } from '@/components/data-table';
import { ErrorNote } from '@/components/error-note';
import { BackgroundPostings } from './background-postings';

type Remittance = z.infer<typeof RemittanceList>['remittances'][number];
type Uploaded = z.infer<typeof UploadResult>;

const SOURCE_WORDS: Record<string, string> = {
  upload: 'Uploaded here',
  webhook: 'From the clearinghouse',
  sandbox: 'Sandbox clearinghouse',
};

// 5 MiB: the route's cap on the request body (the interchange itself is capped lower; the route says so).
const MAX_FILE_BYTES = 5 * 1024 * 1024;

export function RemittancesScreen({ canUpload }: { canUpload: boolean }) {
  const fmt = useDateFormat();
  const [version, setVersion] = useState(0);
  const { data, error } = useApiRead<{ remittances: Remittance[] }>('/api/remittances', version);
  const remittances = data?.remittances ?? null;
  const reload = useCallback(() => setVersion((v) => v + 1), []);

  return (
    <>
      {canUpload ? <UploadForm onPosted={reload} /> : null}
      <BackgroundPostings onPosted={reload} />
      <section className="card" aria-labelledby="remittances-title">
        <h2 id="remittances-title">Posted remittances</h2>
        {error ? <ErrorNote error={error} /> : null}
        <DataTable
          rows={remittances}
          empty="No remittances yet."
          rowKey={(r) => r.id}
          rowProps={(r) => ({ 'data-testid': `remittance-row-${r.traceNumber}` })}
          columns={[
            { header: 'Payer', cell: (r) => r.payerName || r.payerId },
            {
              header: 'Trace (EFT or check)',
              label: 'Trace',
              // The link is the trace, one of its own per row: a column of links all named "Aetna" told a screen
              // reader's list of links nothing.
              cell: (r) => <Link href={`/remittances/${encodeURIComponent(r.id)}`}>{r.traceNumber}</Link>,
            },
            { header: 'Payment date', cell: (r) => fmt.date(r.paymentDate) },
            { header: 'Paid', amount: true, cell: (r) => formatDollars(r.paymentCents) },
            {
              header: 'Claims',
              cell: (r) => (
                <>
                  {r.claimCount}
                  {r.unmatchedCount ? (
                    <div className="error" data-testid="remittance-unmatched-count">
                      {r.unmatchedCount} not matched to a sent claim
                    </div>
                  ) : null}
                </>
              ),
            },
            {
              header: 'Received',
              cell: (r) => (
                <>
                  {fmt.dateTime(r.createdAt)}
                  <div className="muted">{SOURCE_WORDS[r.source] ?? r.source}</div>
                </>
              ),
            },
          ]}
        />
      </section>
    </>
  );
}

function UploadForm({ onPosted }: { onPosted: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [result, setResult] = useState<Uploaded | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    setError(null);
    setResult(null);
    if (!file) {
      setFieldError('Choose the 835 file the payer sent.');
      return;
    }
    if (file.size > MAX_FILE_BYTES) {
      setFieldError('The file is larger than 5 MB: ask the payer for one remittance per file.');
      return;
    }
    setFieldError(null);
    setBusy(true);
    try {
      const x12 = await file.text();
      const posted = await apiFetch<Uploaded>('/api/remittances', { method: 'POST', json: { x12 } });
      setResult(posted);
      setFile(null);
      form.reset();
      onPosted();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Form className="card" onSubmit={submit} noValidate aria-labelledby="upload-title">
      <h2 id="upload-title">Post a remittance file</h2>
      <Field
        id="remittance-file"
        label="835 file from the payer"
        hint="Posting is all or nothing, and a file already posted changes nothing."
        issue={fieldError}
      >
        {(control) => (
          <input
            {...control}
            type="file"
            accept=".835,.txt,.x12,.edi,text/plain"
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          />
        )}
      </Field>
      <div className="billing-actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Posting…' : 'Post remittance'}
        </button>
      </div>
      <div role="status" data-testid="upload-result">
        {result ? (
          <ul>
            {result.remittances.map((r) => (
              <li key={r.remittanceId}>
                {r.duplicate ? 'Already posted (nothing changed): ' : 'Posted: '}
                <Link href={`/remittances/${encodeURIComponent(r.remittanceId)}`}>trace {r.traceNumber}</Link>,{' '}
                {formatDollars(r.paymentCents)}, {r.claimsPosted} claim{r.claimsPosted === 1 ? '' : 's'}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      {error ? (
        <ErrorNote error={error} otherwise="The file could not be sent. Try again." testId="upload-error" />
      ) : null}
    </Form>
  );
}
