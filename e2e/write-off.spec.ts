// Writing off a claim in Chromium (issue #22 item 5): billing opens a claim the payer's front end rejected and the
// clinic will not send again, writes off part of it and then the rest with the step-up dialog; the claim shows
// what was written off and its balance, and closes at 0 with the reason.
import { test, expect, type Page } from 'playwright/test';
import { clinicToday } from '../lib/time/clinic-day';
import { PASSWORD, signedInPage, submitClaimThroughApi, verifyCoverageOnFile } from './billing-setup';

const PATIENT = 'pat_n_007';

async function confirmIfAsked(page: Page) {
  // The step-up claim from the submit may still be fresh; the dialog opens only when the route asks for one.
  const dialog = page.getByRole('dialog', { name: "Confirm it's you" });
  const asked = await dialog.waitFor({ state: 'visible', timeout: 3_000 }).then(
    () => true,
    () => false,
  );
  if (asked) {
    await dialog.getByLabel('Your password').fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
  }
}

test('billing writes off a rejected claim in two steps and the claim closes at a zero balance', async ({ browser }) => {
  const admin = await signedInPage(browser, 'admin@northside.test');
  const onFile = (await (await admin.request.get(`/api/patients/${PATIENT}`)).json()).coverage;
  const billing = await signedInPage(browser, 'billing@northside.test');
  const setMember = async (memberId: string) => {
    const res = await billing.request.put(`/api/patients/${PATIENT}/coverage`, {
      data: { payerId: onFile.payerId, memberId },
    });
    expect(res.status(), await res.text()).toBe(200);
    await verifyCoverageOnFile(admin, PATIENT);
  };
  await setMember('DEMO-CH-REJECT-N007');
  try {
    const { claimId, status } = await submitClaimThroughApi(billing, {
      patientId: PATIENT,
      serviceDate: clinicToday(new Date(), 'America/New_York'),
      diagnoses: ['J06.9'],
      lines: [{ procedureCode: '99213', diagnosisPointers: [1], units: 1, chargeCents: 12_500 }],
    });
    expect(status).toBe('rejected');

    await billing.goto(`/claims/${claimId}`);
    await expect(billing.getByTestId('claim-balance')).toHaveText('$125.00');
    const section = billing.getByRole('region', { name: 'Write off' });
    await expect(section.getByTestId('write-off-balance')).toHaveText('$125.00');

    // More than the balance is refused on the form, before anything is sent.
    await section.getByLabel('Amount (dollars)').fill('200');
    await section.getByLabel('Reason').fill('Patient moved away; not resubmitting');
    await section.getByRole('button', { name: 'Write off' }).click();
    await expect(section.getByTestId('write-off-amount-error')).toContainText('at most the balance, $125.00');
    await expect(section.getByLabel('Amount (dollars)')).toHaveAttribute('aria-describedby', 'write-off-amount-error');

    await section.getByLabel('Amount (dollars)').fill('25.00');
    await section.getByRole('button', { name: 'Write off' }).click();
    await confirmIfAsked(billing);
    await expect(billing.getByTestId('claim-written-off')).toHaveText('$25.00');
    await expect(billing.getByTestId('claim-balance')).toHaveText('$100.00');
    await expect(billing.getByTestId('claim-status')).toHaveAttribute('data-status', 'rejected');

    await section.getByLabel('Reason').fill('Not resubmitting');
    await expect(section.getByLabel('Amount (dollars)')).toHaveValue('100.00');
    await section.getByRole('button', { name: 'Write off' }).click();
    await confirmIfAsked(billing);
    await expect(billing.getByTestId('claim-status')).toHaveAttribute('data-status', 'closed');
    await expect(billing.getByTestId('claim-status-reason')).toHaveText('Written off: Not resubmitting');
    await expect(billing.getByTestId('claim-balance')).toHaveText('$0.00');
    await expect(billing.getByRole('region', { name: 'Write off' })).toHaveCount(0);
    await expect(billing.getByTestId('claim-timeline')).toContainText('Written off');
  } finally {
    await setMember(onFile.memberId);
    await admin.context().close();
  }
});
