import { test, expect } from 'playwright/test';
import { clinicToday } from '../lib/time/clinic-day';

// The demo day of Northside Clinic (DECISIONS "Demo tenant"): member ids choose the sandbox payer's answer.
const EXPECTED_STATUS: Record<string, string> = {
  pat_n_001: 'active',
  pat_n_002: 'inactive',
  pat_n_003: 'active',
  pat_n_004: 'active',
  pat_n_005: 'unknown',
  pat_n_006: 'unknown',
  pat_n_007: 'active',
  pat_n_008: 'active',
  pat_n_009: 'active',
  pat_n_010: 'skipped',
};

test("the front desk checks today's roster and sees every status, the reasons and the summary", async ({ page }) => {
  await page.goto('/eligibility/roster');
  await expect(page).toHaveURL(/\/login/);
  await page.getByLabel('E-mail').fill('frontdesk@northside.test');
  await page.getByLabel('Password').fill('demo-password-1');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/eligibility\/roster/);
  await expect(page.getByRole('heading', { name: 'Eligibility roster' })).toBeVisible();

  // Today at the clinic (Northside counts days in New York) is the default day, with its ten appointments listed
  // before any check.
  await expect(page.getByLabel('Day')).toHaveValue(clinicToday(new Date(), 'America/New_York'));
  const rows = page.locator('tbody tr');
  await expect(rows).toHaveCount(10);
  await expect(page.getByTestId('roster-row-pat_n_001')).toHaveAttribute('data-status', 'not-checked');

  await page.getByRole('button', { name: 'Check eligibility' }).click();
  await expect(page.getByTestId('summary')).toBeVisible();
  await expect(page.getByTestId('progress')).toContainText('Checked 10 of 10');

  for (const [patientId, status] of Object.entries(EXPECTED_STATUS)) {
    await expect(page.getByTestId(`roster-row-${patientId}`), patientId).toHaveAttribute('data-status', status);
  }
  await expect(page.getByTestId('summary-total')).toHaveText('10');
  await expect(page.getByTestId('summary-active')).toHaveText('6');
  await expect(page.getByTestId('summary-inactive')).toHaveText('1');
  await expect(page.getByTestId('summary-unknown')).toHaveText('2');
  await expect(page.getByTestId('summary-skipped')).toHaveText('1');

  // What staff act on: money in dollars, network, prior authorization, and reasons in words.
  const active = page.getByTestId('roster-row-pat_n_001');
  await expect(active).toContainText('Active');
  await expect(active).toContainText('$25.00 / $50.00');
  await expect(active).toContainText('$1,000.00');
  await expect(active).toContainText('In network');
  await expect(page.getByTestId('roster-row-pat_n_002')).toContainText('Coverage is not active on this date');
  await expect(page.getByTestId('roster-row-pat_n_003')).toContainText('Required');
  await expect(page.getByTestId('roster-row-pat_n_004')).toContainText('Out of network');
  await expect(page.getByTestId('roster-row-pat_n_005')).toContainText('Subscriber/insured not found');
  await expect(page.getByTestId('roster-row-pat_n_005')).toContainText('Next step:');
  await expect(page.getByTestId('roster-row-pat_n_006')).toContainText('Unable to respond at current time');
  await expect(page.getByTestId('roster-row-pat_n_010')).toContainText('no insurance on file (self-pay)');
  // Prior authorization is a fact of an active answer: an inactive or unknown row says nothing of it.
  const priorAuth = (patientId: string) =>
    page.getByTestId(`roster-row-${patientId}`).locator('td[data-label="Prior authorization"]');
  await expect(priorAuth('pat_n_001')).toHaveText('Not flagged');
  for (const patientId of ['pat_n_002', 'pat_n_005', 'pat_n_006']) {
    await expect(priorAuth(patientId), patientId).toHaveText('—');
  }
});
