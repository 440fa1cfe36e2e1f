// An 835 that names a draft, in Chromium (issue 28 item 1, DECISIONS "Money in" ruled 2026-11-28): billing uploads
// a payer's 835 paying one submitted claim and one draft; the remittance screen shows the draft's line as not
// posted with its amounts and why, the draft stays a draft, and the reconciliation screen counts it as a variance
// and says the remittance is waiting for its deposit instead of "every day reconciled".
import { test, expect } from 'playwright/test';
import { build835 } from '../lib/x12/fixtures/build-835';
import type { Cents } from '../lib/money/cents';
import type { ClaimPayment } from '../lib/x12/read-remittance';
import { clinicToday } from '../lib/time/clinic-day';
import {
  expectPhoneFriendly,
  signIn,
  signedInPage,
  submitClaimThroughApi,
  verifyCoverageOnFile,
} from './billing-setup';

const SENT_PATIENT = 'pat_n_007';
const DRAFT_PATIENT = 'pat_n_009';

const c = (n: number) => n as Cents;
/** Charge 150.00, CO-45 25.00, PR-1 25.00, paid 100.00. */
const payment = (claimId: string): ClaimPayment => ({
  claimId,
  payerClaimId: null,
  statusCode: '1',
  chargeCents: c(15_000),
  paidCents: c(10_000),
  patientResponsibilityCents: c(2_500),
  adjustments: [],
  lines: [
    {
      procedureCode: '99215',
      modifiers: [],
      chargeCents: c(15_000),
      paidCents: c(10_000),
      units: 1,
      adjustments: [
        { group: 'CO', reason: '45', amountCents: c(2_500) },
        { group: 'PR', reason: '1', amountCents: c(2_500) },
      ],
    },
  ],
});

test('an 835 naming a draft posts nothing to it: the remittance shows the line unmatched and reconciliation counts it', async ({
  page,
  browser,
}) => {
  const admin = await signedInPage(browser, 'admin@northside.test');
  await verifyCoverageOnFile(admin, SENT_PATIENT);
  await admin.context().close();
  const billing = await signedInPage(browser, 'billing@northside.test');
  const today = clinicToday(new Date(), 'America/New_York');
  const claim = (patientId: string) => ({
    patientId,
    serviceDate: today,
    diagnoses: ['J06.9'],
    lines: [{ procedureCode: '99215', diagnosisPointers: [1], units: 1, chargeCents: 15_000 }],
  });
  const sent = await submitClaimThroughApi(billing, claim(SENT_PATIENT));
  const draft = await billing.request.post('/api/claims', { data: claim(DRAFT_PATIENT) });
  expect(draft.status(), await draft.text()).toBe(201);
  const draftId = (await draft.json()).claimId as string;
  await billing.context().close();

  const trace = `E2EUNMATCHED${Date.now()}`;
  const x12 = build835({
    payerId: '60054',
    payerName: 'AETNA',
    payeeNpi: null,
    traceNumber: trace,
    paymentMethod: 'ACH',
    paymentCents: c(20_000),
    paymentDate: today,
    claims: [payment(sent.claimId), payment(draftId)],
    providerAdjustments: [],
  });

  await signIn(page, 'billing@northside.test');
  await page.goto('/remittances');
  await page
    .getByLabel('835 file from the payer')
    .setInputFiles({ name: 'unmatched.835', mimeType: 'text/plain', buffer: Buffer.from(x12) });
  await page.getByRole('button', { name: 'Post remittance' }).click();
  const link = page.getByTestId('upload-result').getByRole('link', { name: /^trace / });
  await expect(link).toBeVisible();
  await expect(page.getByTestId(`remittance-row-${trace}`).getByTestId('remittance-unmatched-count')).toHaveText(
    '1 not matched to a sent claim',
  );
  // The list opens a remittance by its trace, the one name no other row shares.
  await expect(
    page.getByTestId(`remittance-row-${trace}`).getByRole('link', { name: trace, exact: true }),
  ).toHaveAttribute('href', /^\/remittances\/[^/]+$/);

  await link.click();
  await expect(page.getByTestId('remittance-unmatched')).toContainText('Not posted: no sent claim matches');
  const unmatched = page.getByTestId(`remittance-claim-${draftId}`);
  await expect(unmatched).toHaveAttribute('data-posting', 'unmatched');
  await expect(unmatched.getByTestId('remittance-claim-unmatched')).toContainText(
    'Not posted: The claim was never sent to the payer (it is draft)',
  );
  await expect(unmatched.getByTestId('remittance-claim-paid')).toHaveText('$100.00');
  await expect(page.getByTestId(`remittance-claim-${sent.claimId}`)).toHaveAttribute('data-posting', 'posted');
  await expectPhoneFriendly(page);

  await page.goto(`/claims/${draftId}`);
  // Still a draft: its editor, not a sent claim's status (and so nothing was paid on it).
  await expect(page.getByRole('form', { name: `Draft claim ${draftId}` })).toBeVisible();

  await page.goto('/reconciliation');
  const day = page.getByTestId(`variance-day-${today}`);
  await expect(day.locator('li[data-kind="unmatched_claim"]').filter({ hasText: draftId })).toContainText(
    'A remittance paid a claim that was never sent or is not ours: not posted',
  );
  await expect(day.locator('li[data-kind="waiting_for_deposit"]').filter({ hasText: trace })).toContainText(
    'Waiting for the deposit',
  );
  await expect(page.getByText('every day reconciled')).toHaveCount(0);
  await expectPhoneFriendly(page);
});
