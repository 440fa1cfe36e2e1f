'use client';
// The clinic settings form: time zone (IANA names, from the browser's own list) and the billing provider's
// NPI, name, taxonomy, tax id and address. Saving asks for a step-up (the dialog opens by itself) and only the
// changed fields are sent; field errors from the API are sentences next to their fields.
import { useRouter } from 'next/navigation';
import { useEffect, useState, type FormEvent } from 'react';
import { apiFetch } from '@/components/api-fetch';
import { ApiError } from '@/components/api-error';
import { ErrorNote } from '@/components/error-note';
import { issueField } from '@/components/describe-api-error';
import { Form } from '@/components/form';
import { Field, TextField } from '@/components/form-field';

type Address = { line1: string; line2?: string; city: string; state: string; postalCode: string };
type Settings = {
  name: string;
  timeZone: string;
  phone: string | null;
  billingProvider: {
    npi: string | null;
    name: string | null;
    taxonomy: string | null;
    taxId: string | null;
    address: Address | null;
  };
};

type Form = {
  timeZone: string;
  phone: string;
  npi: string;
  name: string;
  taxonomy: string;
  taxId: string;
  line1: string;
  line2: string;
  city: string;
  state: string;
  postalCode: string;
};

const US_ZONES = [
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Phoenix',
  'America/Los_Angeles',
  'America/Anchorage',
  'Pacific/Honolulu',
];

function formOf(settings: Settings): Form {
  const p = settings.billingProvider;
  return {
    timeZone: settings.timeZone,
    phone: settings.phone ?? '',
    npi: p.npi ?? '',
    name: p.name ?? '',
    taxonomy: p.taxonomy ?? '',
    taxId: p.taxId ?? '',
    line1: p.address?.line1 ?? '',
    line2: p.address?.line2 ?? '',
    city: p.address?.city ?? '',
    state: p.address?.state ?? '',
    postalCode: p.address?.postalCode ?? '',
  };
}

/** Only what changed: PATCH keeps every field it is not sent. The address goes whole when any part changed. */
function patchOf(before: Form, after: Form) {
  const changed = (key: keyof Form) => before[key].trim() !== after[key].trim();
  const provider: Record<string, unknown> = {};
  for (const key of ['npi', 'name', 'taxonomy', 'taxId'] as const) if (changed(key)) provider[key] = after[key];
  if ((['line1', 'line2', 'city', 'state', 'postalCode'] as const).some(changed)) {
    provider.address = {
      line1: after.line1,
      ...(after.line2.trim() ? { line2: after.line2 } : {}),
      city: after.city,
      state: after.state,
      postalCode: after.postalCode,
    };
  }
  return {
    ...(changed('timeZone') ? { timeZone: after.timeZone } : {}),
    ...(changed('phone') ? { phone: after.phone } : {}),
    ...(Object.keys(provider).length ? { billingProvider: provider } : {}),
  };
}

export function ClinicSettingsForm() {
  const router = useRouter();
  const [saved, setSaved] = useState<Form | null>(null);
  const [form, setForm] = useState<Form | null>(null);
  const [issues, setIssues] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>(null);
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);
  const [zones] = useState<string[]>(() => {
    const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
    return [...US_ZONES, ...all.filter((z) => !US_ZONES.includes(z))];
  });

  useEffect(() => {
    apiFetch<Settings>('/api/clinic').then(
      (settings) => {
        setSaved(formOf(settings));
        setForm(formOf(settings));
      },
      (failure: unknown) => setError(failure),
    );
  }, []);

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!form || !saved) return;
    const patch = patchOf(saved, form);
    setIssues({});
    setError(null);
    setStatus('');
    if (Object.keys(patch).length === 0) {
      setStatus('Nothing to save: no field changed.');
      return;
    }
    setBusy(true);
    try {
      const settings = await apiFetch<Settings>('/api/clinic', { method: 'PATCH', json: patch });
      setSaved(formOf(settings));
      setForm(formOf(settings));
      setStatus(`Saved. Screens now count the clinic's day in ${settings.timeZone.replaceAll('_', ' ')}.`);
      // The layout reads the time zone on the server: render it again with the new one.
      router.refresh();
    } catch (failure) {
      if (failure instanceof ApiError && failure.body.issues) {
        // The API's messages for these fields are already sentences ("Enter the tax id: 9 digits").
        setIssues(Object.fromEntries(failure.body.issues.map((i) => [issueField(i.path), i.message])));
      }
      setError(failure);
    } finally {
      setBusy(false);
    }
  }

  if (!form) {
    return error ? (
      <ErrorNote error={error} otherwise="The settings could not be loaded. Reload the page." />
    ) : (
      <p className="muted">Loading the settings…</p>
    );
  }

  const field = (name: keyof Form, label: string, hint?: string) => (
    <TextField
      id={`clinic-${name}`}
      label={label}
      hint={hint}
      value={form[name]}
      onChange={(value) => setForm({ ...form, [name]: value })}
      issue={issues[name]}
    />
  );

  return (
    <Form className="card" onSubmit={save} noValidate aria-label="Clinic settings">
      <fieldset className="fd-fieldset">
        <legend>The clinic</legend>
        <Field id="clinic-timeZone" label="The clinic's time zone" issue={issues.timeZone}>
          {(control) => (
            <select {...control} value={form.timeZone} onChange={(e) => setForm({ ...form, timeZone: e.target.value })}>
              {(zones.includes(form.timeZone) ? zones : [form.timeZone, ...zones]).map((zone) => (
                <option key={zone} value={zone}>
                  {zone.replaceAll('_', ' ')}
                </option>
              ))}
            </select>
          )}
        </Field>
        {field('phone', 'Phone for patients', 'Printed on patient statements; 10 digits')}
      </fieldset>
      <fieldset className="fd-fieldset">
        <legend>Billing provider</legend>
        {field('npi', 'NPI', '10 digits, as NPPES issued it')}
        {field('name', 'Name')}
        {field('taxonomy', 'Taxonomy code', 'e.g. 261QP2300X (primary care clinic)')}
        {field('taxId', 'Tax id (EIN)', '9 digits')}
        {field('line1', 'Street address')}
        {field('line2', 'Address line 2 (optional)')}
        {field('city', 'City')}
        {field('state', 'State', 'Two letters, e.g. CA')}
        {field('postalCode', 'ZIP code', '5 or 9 digits')}
      </fieldset>
      <div className="fd-actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Saving…' : 'Save settings'}
        </button>
      </div>
      <p role="status" data-testid="clinic-settings-status">
        {status}
      </p>
      {error ? <ErrorNote error={error} otherwise="The settings could not be saved. Try again." /> : null}
    </Form>
  );
}
