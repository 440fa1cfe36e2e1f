import { test, expect, type Page } from 'playwright/test';
import { clinicRecords } from '../lib/sandbox-ehr/synthetic-records';

// The sandbox demo end to end (issue #12): an admin creates a connection to the app's own sandbox EHR, connects
// it by approving on the sandbox EHR's page with a patient in context, pulls, and sees the counts and the records.
const patient = clinicRecords('clinic_north').byType.Patient[1]!;
const [name] = patient.name as Array<{ family: string; given: string[] }>;

/**
 * The connections are read once the screen is hydrated. A form filled before that is not the form's state, and an
 * "Add connection" clicked then submits the bare HTML form, reloading the page empty (seen in a full CI run).
 */
async function openedIntegrations(page: Page) {
  await expect(page.getByRole('heading', { name: 'Integrations' })).toBeVisible();
  const list = page.getByRole('region', { name: 'EMR connections' });
  await expect(list).toBeVisible();
  await expect(list.getByText('Loading…')).toHaveCount(0);
}

test('an admin connects the sandbox EHR, approves with a patient, pulls and sees the resources', async ({ page }) => {
  await page.goto('/login?callbackUrl=/settings/integrations');
  await page.getByLabel('E-mail').fill('admin@northside.test');
  await page.getByLabel('Password').fill('demo-password-1');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await openedIntegrations(page);

  await page.getByLabel('EMR type').selectOption('generic-fhir');
  await page.getByLabel(/^Name/).fill('Sandbox EHR demo');
  await page.getByLabel(/^Client id/).fill('sandbox-ehr-demo');
  await page.getByRole('button', { name: 'Add connection' }).click();
  // Creating a connection is step-up gated: the dialog takes the password first.
  const dialog = page.getByRole('dialog', { name: "Confirm it's you" });
  await expect(dialog.getByTestId('step-up-description')).toHaveText('Add the connection Sandbox EHR demo');
  await dialog.getByLabel('Your password').fill('demo-password-1');
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog).toBeHidden();
  const row = page.locator('tr[data-testid^="connection-"]', { hasText: 'Sandbox EHR demo' });
  await expect(row.getByTestId('connection-status')).toHaveText('Pending');

  // Connect: our authorize route sends the browser to the sandbox EHR's page.
  await row.getByRole('link', { name: /^Connect / }).click();
  await expect(page.getByRole('heading', { name: 'Authorize an application' })).toBeVisible();
  await expect(page.getByText('sandbox-ehr-demo')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Requested scopes' })).toContainText('launch/patient');
  await page.getByRole('radio', { name: new RegExp(patient.id) }).check();
  await page.getByRole('button', { name: 'Approve' }).click();

  await expect(page).toHaveURL(/\/settings\/integrations\?oauth=connected/);
  const connected = page.locator('tr[data-testid^="connection-"]', { hasText: 'Sandbox EHR demo' });
  await expect(connected.getByTestId('connection-status')).toContainText('Connected');

  await connected.getByRole('button', { name: /^Pull now from / }).click();
  await expect(connected.getByTestId('count-Patient')).toHaveText('1', { timeout: 30_000 });
  await expect(connected.getByTestId('count-Observation')).not.toHaveText('0');
  // The counts speak a clinic's words, not FHIR's: "Saved" visits and patients, not "Upserted" Encounters.
  await expect(connected.getByRole('columnheader', { name: 'Saved' })).toBeVisible();
  await expect(connected.getByRole('cell', { name: 'Visits', exact: true })).toBeVisible();
  await expect(connected.getByText(/Upserted|Encounter/)).toHaveCount(0);

  // The pulled patient is in the clinic's FHIR store.
  const search = await page.request.get('/api/fhir/Patient?_count=100');
  expect(search.status()).toBe(200);
  expect(await search.text()).toContain(name!.family);
});

// Issue #32 item 3: a smart-backend Pull now is a job. The screen follows its run and offers Cancel while it runs;
// the sandbox EHR's export is ready within a second, but our client waits at least 10 s between status polls, so
// the first pull is cancelled in that wait and the second one is left to finish.
test('an admin pulls the sandbox EHR as a backend job, cancels one pull and lets the next finish', async ({ page }) => {
  await page.goto('/login?callbackUrl=/settings/integrations');
  await page.getByLabel('E-mail').fill('admin@northside.test');
  await page.getByLabel('Password').fill('demo-password-1');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await openedIntegrations(page);

  await page.getByLabel('EMR type').selectOption('smart-backend');
  // The first test's connection has its own "Name" (rename) field: the create form's is the one by id.
  await page.locator('#connection-name').fill('Sandbox EHR backend');
  await page.getByRole('button', { name: 'Add connection' }).click();
  const dialog = page.getByRole('dialog', { name: "Confirm it's you" });
  await dialog.getByLabel('Your password').fill('demo-password-1');
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog).toBeHidden();
  const row = page.locator('tr[data-testid^="connection-"]', { hasText: 'Sandbox EHR backend' });
  await expect(row.getByTestId('connection-status')).toContainText('Connected');

  await row.getByRole('button', { name: /^Pull now from / }).click();
  const cancel = row.getByRole('button', { name: /^Cancel the pull from / });
  await expect(cancel).toBeVisible();
  await expect(row.getByTestId('pull-progress')).toContainText(/preparing the export|Queued|Starting|Asking/);
  await cancel.click();
  await expect(row.getByText(/was cancelled; nothing was saved/)).toBeVisible({ timeout: 30_000 });
  await expect(cancel).toBeHidden();

  await row.getByRole('button', { name: /^Pull now from / }).click();
  await expect(row.getByText(/^Last pull .*: \d+ resources/)).toBeVisible({ timeout: 60_000 });
  await expect(row.getByRole('button', { name: /^Pull now from / })).toBeEnabled();
});
