import { test, expect } from 'playwright/test';
import { E2E_EMR_CLIENT_ID, E2E_FAKE_EMR_PORT } from './e2e-env';

// The browser OAuth round trip against the fake EMR (global-setup.ts): create a connection (through the step-up
// dialog), register its client id, Connect, consent at the EMR, and land back on the integrations screen with the
// connection connected.
test('an admin creates a connection and connects it through the EMR sign-in', async ({ page }) => {
  await page.goto('/login?callbackUrl=/settings/integrations');
  await page.getByLabel('E-mail').fill('admin@northside.test');
  await page.getByLabel('Password').fill('demo-password-1');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Integrations' })).toBeVisible();
  await expect(page.getByTestId('redirect-uri')).toHaveText(`${test.info().project.use.baseURL}/api/emr-sync/callback`);

  // Created without a client id: it needs registration, and cannot connect yet.
  await page.getByLabel('EMR type').selectOption('browser-oauth');
  await page.getByRole('button', { name: 'Add connection' }).click();
  // Creating a connection is step-up gated: the dialog says what it confirms and takes the password.
  const dialog = page.getByRole('dialog', { name: "Confirm it's you" });
  await expect(dialog.getByTestId('step-up-description')).toHaveText('Add an EMR connection');
  await dialog.getByLabel('Your password').fill('demo-password-1');
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog).toBeHidden();
  const row = page.locator('tr[data-testid^="connection-"]').first();
  await expect(row.getByTestId('connection-status')).toHaveText('Needs registration');
  await expect(row.getByText('Add the client id first')).toBeVisible();

  await row.getByLabel('Client id issued by the EMR').fill(E2E_EMR_CLIENT_ID);
  await row.getByRole('button', { name: /Save client id/ }).click();
  await expect(row.getByTestId('connection-status')).toHaveText('Pending');

  // Connect: our authorize route, the fake EMR's consent (it approves at once), our callback, back here.
  const emrRequest = page.waitForRequest((request) =>
    request.url().startsWith(`http://127.0.0.1:${E2E_FAKE_EMR_PORT}/oauth/authorize`),
  );
  await row.getByRole('link', { name: /^Connect / }).click();
  const authorize = new URL((await emrRequest).url());
  expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorize.searchParams.get('client_id')).toBe(E2E_EMR_CLIENT_ID);
  await expect(page).toHaveURL(/\/settings\/integrations\?oauth=connected&connectionId=emr_/);
  // The OAuth outcome's status, not the CDS Hooks list's "Loading…" (also a status) that may still be on the page.
  await expect(page.getByRole('status').filter({ hasText: 'The EMR connection' })).toHaveText(
    'The EMR connection is connected.',
  );
  await expect(page.locator('tr[data-testid^="connection-"]').first().getByTestId('connection-status')).toContainText(
    'Connected',
  );

  // The same callback replayed (the state is single-use) is refused and shown as such.
  await page.goto(`/api/emr-sync/callback?state=${authorize.searchParams.get('state')}&code=replayed`);
  await expect(page).toHaveURL(/oauth=failed&code=VALIDATION_FAILED/);
  await expect(page.getByRole('alert').first()).toContainText('already used');

  // Deleting a connection is step-up gated too: with the creation's claim gone, the dialog asks again.
  await page.context().clearCookies({ name: 'svc-step-up' });
  await page.goto('/settings/integrations');
  const connected = page.locator('tr[data-testid^="connection-"]').first();
  const testId = (await connected.getAttribute('data-testid'))!;
  await connected.getByRole('button', { name: /^Delete / }).click();
  await connected.getByRole('button', { name: /^Yes, delete / }).click();
  await expect(dialog.getByTestId('step-up-description')).toHaveText(/^Delete the connection /);
  await dialog.getByLabel('Your password').fill('demo-password-1');
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.locator(`tr[data-testid="${testId}"]`)).toHaveCount(0);
});
