// The claims screens in Chromium (issue #13): a billing user creates a claim with two lines, sees a scrub error
// next to its field, fixes it, submits through the step-up dialog, and sees the clearinghouse's 999 and the payer's
// 277CA on the claim's timeline. A claim needs an active eligibility check of the coverage on file from the last
// 24 hours, and billing staff cannot check eligibility: the admin checks pat_n_001 through the API first.
import { test, expect } from 'playwright/test';
import { expectPhoneFriendly, PASSWORD, signIn, signedInPage, verifyCoverageOnFile } from './billing-setup';

const PATIENT = 'pat_n_001';

test('billing creates a two-line claim, fixes a scrub error, submits with step-up and sees the 999 and 277CA', async ({
  page,
  browser,
}) => {
  // A long walk (three users, the claim screens and five refusals, three pages at phone width): 46 s alone on two
  // cores, past the default 60 s once when the front desk's app and browser ran beside it.
  test.setTimeout(120_000);
  const admin = await signedInPage(browser, 'admin@northside.test');
  await verifyCoverageOnFile(admin, PATIENT);
  await admin.context().close();

  await signIn(page, 'billing@northside.test');
  await page.goto('/claims');
  await expect(page.getByRole('heading', { name: 'Claims', level: 1 })).toBeVisible();
  await page.getByRole('link', { name: 'New claim' }).click();
  await expect(page.getByRole('heading', { name: 'New claim', level: 1 })).toBeVisible();

  // The patient is found by name (GET /api/claims/patients: billing has no patients:read).
  await page.getByLabel('Patient (search by name)').fill('Avery North');
  await page.getByRole('button', { name: /^Avery Northside001, born / }).click();
  await expect(page.getByTestId('claim-patient')).toContainText('Chosen: Avery Northside001');
  await page.getByLabel('Diagnosis 1').fill('J06.9');
  await page.getByRole('button', { name: 'Add a diagnosis' }).click();
  // Not an ICD-10-CM code: the scrubber's code-shape edit names this field.
  await page.getByLabel('Diagnosis 2').fill('COUGH');

  const line1 = page.getByTestId('claim-line-0');
  await line1.getByLabel('Procedure code (CPT/HCPCS)').fill('99213');
  await line1.getByLabel('Diagnosis numbers this line treats').fill('1');
  await line1.getByLabel('Charge (dollars)').fill('125.00');
  await page.getByRole('button', { name: 'Add a line' }).click();
  const line2 = page.getByTestId('claim-line-1');
  await line2.getByLabel('Procedure code (CPT/HCPCS)').fill('87880');
  await line2.getByLabel('Diagnosis numbers this line treats').fill('1, 2');
  await line2.getByLabel('Charge (dollars)').fill('30.50');
  await expect(page.getByTestId('claim-total')).toHaveText('$155.50');

  // The scrub error appears next to its field, and the field says so to assistive technology.
  await page.getByRole('button', { name: 'Check for problems' }).click();
  const diagnosisError = page.getByTestId('claim-diagnoses-1-error');
  await expect(diagnosisError).toContainText('ICD-10-CM');
  await expect(page.getByLabel('Diagnosis 2')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Diagnosis 2')).toHaveAttribute('aria-describedby', 'claim-diagnoses-1-error');
  await expect(page.getByTestId('claim-editor-status')).toContainText('1 problem');

  await page.getByLabel('Diagnosis 2').fill('R05.9');
  await page.getByRole('button', { name: 'Check for problems' }).click();
  await expect(page.getByTestId('claim-editor-status')).toContainText('No problems found');
  await expect(diagnosisError).toBeHidden();

  // Submitting is step-up gated: the dialog asks for the password, then the claim is sent.
  await page.getByRole('button', { name: 'Submit claim' }).click();
  const dialog = page.getByRole('dialog', { name: "Confirm it's you" });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Your password').fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog).toBeHidden();

  await expect(page).toHaveURL(/\/claims\/(?!new$)[^/]+$/);
  const claimId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
  const timeline = page.getByTestId('claim-timeline');
  await expect(timeline).toContainText('Clearinghouse file acknowledgement (999)');
  await expect(timeline).toContainText('Payer claim acknowledgement (277CA)');
  await expect(page.getByTestId('claim-status')).toHaveAttribute('data-status', /^(accepted|paid)$/);
  await expect(page.getByRole('cell', { name: '$125.00' }).first()).toBeVisible();

  // What went to the payer and back, with the exact bytes one click away.
  const documents = page.getByTestId('claim-transmissions');
  await expect(documents).toContainText('Sent: Claim sent (837P)');
  await expect(documents).toContainText('Received: File acknowledgement (999)');
  await expect(documents).toContainText('Received: Payer claim acknowledgement (277CA)');
  await documents.getByText('Sent: Claim sent (837P)').click();
  await expect(documents.locator('pre').first()).toContainText(`CLM*${claimId}*`);

  // The work queue lists it.
  await page.goto('/claims');
  await expect(page.getByTestId(`claim-row-${claimId}`)).toContainText('$155.50');
  // People, not ids: the queue names the patient.
  await expect(page.getByTestId(`claim-row-${claimId}`)).toContainText('Avery Northside001');
  await expect(page.getByTestId(`claim-row-${claimId}`)).not.toContainText(PATIENT);
  await expectPhoneFriendly(page);
  await page.goto(`/claims/${claimId}`);
  await expect(page.getByTestId('claim-timeline')).toBeVisible();
  await expectPhoneFriendly(page);
  await page.goto('/claims/new');
  await expect(page.getByTestId('claim-editor')).toBeVisible();
  await expectPhoneFriendly(page);

  // The front desk reads claims but neither writes them nor sees money screens: the pages say so in words.
  const frontDesk = await signedInPage(browser, 'frontdesk@northside.test');
  await frontDesk.goto('/claims');
  await expect(frontDesk.getByTestId(`claim-row-${claimId}`)).toBeVisible();
  await expect(frontDesk.getByRole('link', { name: 'New claim' })).toHaveCount(0);
  for (const path of ['/claims/new', '/remittances', '/bills', '/settlement', '/reconciliation']) {
    await frontDesk.goto(path);
    await expect(frontDesk.getByTestId('no-access'), path).toHaveText(
      "Your role can't do this; ask your clinic admin.",
    );
  }
  await frontDesk.context().close();
});
