// Money out in Chromium (issue #24 screens): an admin sets the clinic's payout account in the clinic settings
// through the step-up dialog (shown masked, unverified), sends its prenote from the settlement console's batches
// (offered only while it is due), sees a refused batch's problems inline, releases the prenote batch and downloads
// its NACHA file.
// State: clinic_south ends with a payout account, one released prenote batch and one signed instruction.
import { test, expect } from 'playwright/test';
import { PASSWORD, signedInPage } from './billing-setup';

const ADMIN = 'admin@southside.test';

test('payout account with step-up, prenote batch, problems inline, release and the file', async ({ browser }) => {
  const page = await signedInPage(browser, ADMIN);
  await page.goto('/settings/clinic');
  const account = page.getByTestId('payout-account');
  // A routing number failing its ABA check digit: the API's problem is shown beside that field.
  await account.getByLabel('Routing number').fill('011000016');
  await account.getByLabel('Account number').fill('000123456789');
  await account.getByLabel('Account holder').fill('Southside Clinic');
  await account.getByRole('button', { name: 'Save payout account' }).click();
  const dialog = page.getByRole('dialog', { name: "Confirm it's you" });
  await dialog.getByLabel('Your password').fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(account.getByTestId('payout-routingNumber-error')).toHaveText(
    "This routing number fails its ABA check digit: check it against the bank's letter or a cheque",
  );
  await expect(account.getByLabel('Routing number')).toHaveAttribute('aria-invalid', 'true');
  await account.getByLabel('Routing number').fill('011000015');
  await account.getByRole('button', { name: 'Save payout account' }).click();
  await expect(account.getByTestId('payout-account-current')).toContainText(
    'checking account ending 6789 (routing ending 0015): not verified yet',
  );
  await expect(account).not.toContainText('000123456789');

  await page.goto('/settlement');
  const batches = page.getByTestId('payout-batches');
  await expect(batches.getByTestId('payout-account-note')).toContainText('its prenote');
  await batches.getByRole('button', { name: 'Send the payout account prenote' }).click();
  await expect(batches.getByText(/built: 1 entries, \$0\.00\./)).toBeVisible();
  const row = batches.getByTestId('batch-row').first();
  await expect(row).toHaveAttribute('data-status', 'created');
  await expect(row).toContainText("$0.00, the account's prenote");
  // The effective date as every date on the screens is written ("Dec 1, 2026"), not YYYY-MM-DD.
  await expect(row).toContainText(/[A-Z][a-z]{2} \d{1,2}, \d{4}/);
  await expect(row).not.toContainText(/\d{4}-\d{2}-\d{2}/);
  // The file is the bank's only once released: no download before.
  await expect(row.getByRole('link', { name: 'Download file' })).toHaveCount(0);

  // A second prenote is not due: nothing to build until an instruction is chosen.
  await expect(batches.getByTestId('payout-account-note')).toContainText('with the bank');
  await expect(batches.getByRole('button', { name: 'Send the payout account prenote' })).toHaveCount(0);
  await expect(batches.getByRole('button', { name: 'Build a batch', exact: true })).toBeDisabled();

  // An instruction cannot be paid out before the bank confirms the prenote: the refusal's problem is listed inline.
  await page.getByLabel('Advance (dollars)').fill('100.00');
  await page.getByRole('button', { name: 'Draft instruction' }).click();
  const instruction = page.getByTestId('instruction');
  await instruction.getByRole('button', { name: 'Sign instruction' }).click();
  await expect(instruction).toHaveAttribute('data-status', 'SIGNED');
  await batches.getByRole('checkbox').check();
  await batches.getByRole('button', { name: 'Build a batch of 1' }).click();
  await expect(batches.getByTestId('batch-problems')).toContainText(
    'not verified until the bank confirms the batch carrying its prenote',
  );

  await row.getByRole('button', { name: 'Release' }).click();
  await expect(row).toHaveAttribute('data-status', 'released');
  await expect(row).toContainText('Released, waiting for the bank');

  const href = await row.getByRole('link', { name: 'Download file' }).getAttribute('href');
  const file = await page.request.get(href!);
  expect(file.status()).toBe(200);
  const lines = (await file.text()).trimEnd().split('\n');
  expect(lines).toHaveLength(10);
  expect(lines.every((line) => line.length === 94)).toBe(true);
  expect(lines[2]!.slice(0, 12)).toBe('623011000015'); // a checking prenote to the clinic's bank
  await page.context().close();
});
