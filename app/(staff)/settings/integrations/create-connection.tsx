'use client';
// The form that adds an EMR connection (vendor, name, client id, FHIR base URL), behind a step-up.
import { useState, type FormEvent } from 'react';
import { apiFetch } from '@/components/api-fetch';
import { ErrorNote } from '@/components/error-note';
import { VENDORS } from './connection';
import { Form } from '@/components/form';

export function CreateConnection({ onCreated }: { onCreated: () => Promise<void> }) {
  const [error, setError] = useState<unknown>(null);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const clientId = String(data.get('clientId') ?? '').trim();
    const fhirBaseUrl = String(data.get('fhirBaseUrl') ?? '').trim();
    const name = String(data.get('name') ?? '').trim();
    try {
      await apiFetch('/api/emr-sync/connections', {
        method: 'POST',
        json: {
          vendor: data.get('vendor'),
          ...(name && { name }),
          ...(clientId && { clientId }),
          ...(fhirBaseUrl && { fhirBaseUrl }),
        },
        stepUpDescription: `Add ${name ? `the connection ${name}` : 'an EMR connection'}`,
      });
      setError(null);
    } catch (failure) {
      return setError(failure);
    }
    form.reset();
    await onCreated();
  }
  return (
    <section className="card" aria-labelledby="create-heading">
      <h2 id="create-heading">Add a connection</h2>
      <Form onSubmit={submit}>
        <label htmlFor="vendor">EMR type</label>
        <select id="vendor" name="vendor" defaultValue="browser-oauth">
          {Object.entries(VENDORS).map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </select>
        <label htmlFor="connection-name">Name (optional, e.g. &ldquo;Epic production&rdquo;)</label>
        <input id="connection-name" name="name" maxLength={100} autoComplete="off" />
        <label htmlFor="clientId">Client id (optional: add it later if the EMR has not issued one yet)</label>
        <input id="clientId" name="clientId" autoComplete="off" />
        <label htmlFor="fhirBaseUrl">FHIR base URL (optional: for a server not configured for its vendor)</label>
        <input id="fhirBaseUrl" name="fhirBaseUrl" type="url" placeholder="https://emr.example/fhir/R4" />
        {error ? <ErrorNote error={error} /> : null}
        <p>
          <button type="submit">Add connection</button>
        </p>
      </Form>
    </section>
  );
}
