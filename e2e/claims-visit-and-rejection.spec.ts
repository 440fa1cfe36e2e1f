// Issue 28 items 4 and 5 in Chromium. "Bill this visit": from a patient record's appointment the claim editor opens
// filled with the patient, date of service (the appointment's date at the clinic), place of service and rendering
// provider; billing (no patients:read) opens the same link and finds patients by name in the editor. A claim the
// sandbox clearinghouse rejects (a DEMO-CH-REJECT member id: 999 accepted, 277CA A7:33) shows the reason in words
// and "Edit and resubmit"; once the coverage on file is corrected, the edited claim is sent again as an original
// and accepted.
import { test, expect, type Page } from 'playwright/test';
import { PASSWORD, signedInPage, submitClaimThroughApi, verifyCoverageOnFile } from './billing-setup';
import { clinicInstant, clinicToday, previousDate } from '../lib/time/clinic-day';

const NORTHSIDE_NPI = '1234567893';
const NORTHSIDE_TIME_ZONE = 'America/New_York';

async function expectFilledFromVisit(page: Page, serviceDate: string) {
  await expect(page.getByTestId('claim-from-visit')).toContainText('Blake Northside002');
  await expect(page.getByTestId('claim-patient')).toContainText('Chosen: Blake Northside002, born');
  await expect(page.getByLabel('Date of service', { exact: true })).toHaveValue(serviceDate);
  await expect(page.getByLabel('Place of service')).toHaveValue('11');
  await expect(page.getByLabel(/^Rendering provider NPI/)).toHaveValue(NORTHSIDE_NPI);
}

test('"Bill this visit" opens the claim editor filled, and billing finds a patient by name', async ({ browser }) => {
  const admin = await signedInPage(browser, 'admin@northside.test');
  // The roster row offers it to a user who can write claims.
  await admin.goto('/eligibility/roster');
  await expect(
    admin.getByTestId('roster-row-pat_n_002').getByRole('link', { name: 'Bill this visit' }),
  ).toHaveAttribute('href', /^\/claims\/new\?appointmentId=appt_n_002_\d{8}$/);
  await admin.goto('/patients/pat_n_002');
  await admin.getByRole('link', { name: 'Bill this visit' }).first().click();
  await expect(admin).toHaveURL(/\/claims\/new\?appointmentId=appt_n_002_\d{8}$/);
  const link = new URL(admin.url());
  const day = link.searchParams.get('appointmentId')!.slice(-8);
  const serviceDate = `${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6)}`;
  expect(serviceDate).toBe(clinicToday(new Date(), NORTHSIDE_TIME_ZONE));
  await expectFilledFromVisit(admin, serviceDate);
  await admin.context().close();

  const billing = await signedInPage(browser, 'billing@northside.test');
  const denied: string[] = [];
  billing.on('response', (res) => {
    if (res.url().includes('/api/') && res.status() === 403) denied.push(res.url());
  });
  await billing.goto(`${link.pathname}${link.search}`);
  await expectFilledFromVisit(billing, serviceDate);

  await billing.goto('/claims/new');
  await billing.getByLabel('Patient (search by name)').fill('casey');
  await billing.getByRole('button', { name: /^Casey Northside003, born / }).click();
  await expect(billing.getByTestId('claim-patient')).toContainText('Chosen: Casey Northside003');
  // Another clinic's patients are not offered.
  await billing.getByLabel('Patient (search by name)').fill('Southside');
  await expect(billing.getByText('No patient of this clinic matches.')).toBeVisible();
  // No billing screen asked for a route billing cannot use.
  for (const path of ['/claims', '/denials', '/remittances', '/bills']) await billing.goto(path);
  expect(denied).toEqual([]);
  await billing.context().close();
});

test('a visit on a later day at the clinic offers nothing to bill yet', async ({ browser }) => {
  const admin = await signedInPage(browser, 'admin@northside.test');
  // The browser's clock at noon the day before the server's: to the screens the demo's morning is tomorrow.
  const today = clinicToday(new Date(), NORTHSIDE_TIME_ZONE);
  await admin.clock.setFixedTime(clinicInstant(previousDate(today), '12:00', NORTHSIDE_TIME_ZONE));
  await admin.goto('/patients/pat_n_002');
  await expect(admin.getByText(/Office visit/).first()).toBeVisible();
  await expect(admin.getByRole('link', { name: 'Bill this visit' })).toHaveCount(0);
  await admin.goto('/eligibility/roster');
  // The screen's own today (the day before) has loaded, so the screen is live before the day is changed.
  await expect(admin.getByText('No appointments on this day.')).toBeVisible();
  await admin.getByLabel('Day').fill(today);
  await expect(admin.getByTestId('roster-row-pat_n_002')).toBeVisible();
  await expect(admin.getByRole('link', { name: 'Bill this visit' })).toHaveCount(0);
  await admin.context().close();
});

test('a rejected claim shows the reason in words, and "Edit and resubmit" sends it again as accepted', async ({
  browser,
}) => {
  const PATIENT = 'pat_n_007';
  const admin = await signedInPage(browser, 'admin@northside.test');
  const onFile = (await (await admin.request.get(`/api/patients/${PATIENT}`)).json()).coverage;
  const billing = await signedInPage(browser, 'billing@northside.test');
  const denied: string[] = [];
  billing.on('response', (res) => {
    if (res.url().includes('/api/') && res.status() === 403) denied.push(res.url());
  });
  const setMember = async (memberId: string) => {
    const res = await billing.request.put(`/api/patients/${PATIENT}/coverage`, {
      data: { payerId: onFile.payerId, memberId },
    });
    expect(res.status(), await res.text()).toBe(200);
    await verifyCoverageOnFile(admin, PATIENT);
  };
  await setMember('DEMO-CH-REJECT-N007');

  const { claimId, status } = await submitClaimThroughApi(billing, {
    patientId: PATIENT,
    serviceDate: clinicToday(new Date(), NORTHSIDE_TIME_ZONE),
    diagnoses: ['J06.9'],
    lines: [{ procedureCode: '99213', diagnosisPointers: [1], units: 1, chargeCents: 12_500 }],
  });
  expect(status).toBe('rejected');

  await billing.goto(`/claims/${claimId}`);
  await expect(billing.getByTestId('claim-status')).toHaveAttribute('data-status', 'rejected');
  await expect(billing.getByTestId('claim-patient-name')).toHaveText('Gray Northside007');
  await expect(billing.getByTestId('claim-status-reason')).toContainText(
    'Rejected for invalid information: Subscriber and subscriber id not found (the subscriber)',
  );
  await expect(billing.getByTestId('claim-next-step')).toBeVisible();

  // The fix: the member id on file was wrong; the front desk (here the admin) corrects it and checks it again.
  await setMember(onFile.memberId);
  await admin.context().close();

  await billing.getByRole('button', { name: 'Edit and resubmit' }).click();
  await expect(billing.getByTestId('claim-editor')).toBeVisible();
  await expect(billing.getByTestId('claim-patient')).toContainText('Gray Northside007');
  await billing.getByTestId('claim-line-0').getByLabel('Charge (dollars)').fill('130.00');
  await billing.getByRole('button', { name: 'Submit claim' }).click();
  const dialog = billing.getByRole('dialog', { name: "Confirm it's you" });
  // The step-up from the first submit may still be fresh; if not, the dialog asks for the password.
  if (await dialog.isVisible({ timeout: 2_000 }).catch(() => false)) {
    await dialog.getByLabel('Your password').fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
  }
  await expect(billing.getByTestId('claim-status')).toHaveAttribute('data-status', /^(accepted|paid)$/);
  await expect(billing.getByTestId('claim-notice')).toHaveText('Claim resubmitted.');
  await expect(billing.getByTestId('claim-timeline')).toContainText('Payer claim acknowledgement (277CA)');
  // Sent again as an original: the second 837P's CLM05-3 is 1.
  const sent = await billing.request.get(`/api/claims/${claimId}/transmissions`);
  const body = await sent.json();
  const outs = (Array.isArray(body) ? body : body.transmissions).filter((t: { kind: string }) => t.kind === '837P');
  expect(outs).toHaveLength(2);
  // Neither the claim page nor its editor asked for a route billing cannot use.
  expect(denied).toEqual([]);
  const resent = new RegExp(`CLM\\*${claimId}\\*130\\*\\*\\*11.B.1\\*`);
  expect(outs.filter((t: { x12: string }) => resent.test(t.x12))).toHaveLength(1);
  await billing.context().close();
});
