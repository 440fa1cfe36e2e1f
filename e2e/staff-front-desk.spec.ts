// The front desk's day in the clinic's time zone (issue #15 items 1-5), in Debian Chromium against the demo tenant:
// Southside Clinic works in America/Los_Angeles; the browser is put there at 17:00 local (01:00 UTC the next
// day), when a UTC "today" would open the roster on tomorrow. The server's clock cannot be moved, so the day
// the roster opens on is compared with the Los Angeles calendar day computed here.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from 'playwright/test';
import { clinicDateOf, clinicInstant, clinicToday } from '../lib/time/clinic-day';

const LA = 'America/Los_Angeles';
const PASSWORD = 'demo-password-1';

test.use({ timezoneId: LA });

async function signIn(page: Page, email: string) {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('signed-in-as')).toHaveText(email);
}

/** The browser's clock at 17:00 in Los Angeles on the clinic's (real) today. */
async function fivePmInLosAngeles(page: Page) {
  const today = clinicToday(new Date(), LA);
  await page.clock.setFixedTime(clinicInstant(today, '17:00', LA));
  return today;
}

async function expectNoSeriousAxeViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    page.url(),
  ).toEqual([]);
}

async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${page.url()} scrolls sideways`).toBeLessThanOrEqual(0);
}

async function checkRoster(page: Page) {
  await page.getByRole('button', { name: 'Check eligibility' }).click();
  await expect(page.getByTestId('progress')).toContainText('Checked 10 of 10');
  await expect(page.getByTestId('summary')).toBeVisible();
}

test("at 17:00 in Los Angeles the roster and verify open on the clinic's today, with clinic-local times", async ({
  page,
}) => {
  const today = await fivePmInLosAngeles(page);
  // In UTC it is already tomorrow: the bug this guards against.
  expect(clinicDateOf(clinicInstant(today, '17:00', LA), 'UTC')).not.toBe(today);
  await signIn(page, 'admin@southside.test');

  await page.goto('/eligibility/roster');
  await expect(page.getByLabel('Day')).toHaveValue(today);
  await expect(page.getByTestId('roster-day')).toContainText('(today at the clinic)');
  await expect(page.locator('tbody tr')).toHaveCount(10);
  // The demo morning runs 08:30 to 13:00 on the clinic's wall clock.
  await expect(page.getByTestId('roster-row-pat_s_001').locator('td').first()).toHaveText('8:30 AM');
  await expect(page.getByTestId('roster-row-pat_s_010').locator('td').first()).toHaveText('1:00 PM');

  await page.goto('/eligibility/verify');
  const picker = page.getByLabel("Fill in from today's appointment");
  await expect(picker.locator('option')).toHaveCount(11);
  await expect(picker.locator('option').nth(1)).toHaveText(/^8:30 AM · Avery Southside001/);
});

test('a verify result takes focus and is announced; unknown shows the reason and next step, not a benefit grid', async ({
  page,
}) => {
  await fivePmInLosAngeles(page);
  await signIn(page, 'admin@southside.test');
  await page.goto('/eligibility/verify');

  // Prior authorization: the form is filled from the patient record (date of birth included), the answer is
  // focused, announced, and the next step names the code in words.
  await page.getByLabel("Fill in from today's appointment").selectOption({ label: '9:30 AM · Casey Southside003' });
  await expect(page.getByTestId('verify-filled')).toContainText('coverage on file');
  await expect(page.getByLabel('Date of birth')).not.toHaveValue('');
  await expect(page.getByLabel('Member id')).toHaveValue('DEMO-PRIORAUTH-S003');
  await expect(page.getByLabel('Payer', { exact: true })).toHaveValue('60054');
  await page.getByRole('button', { name: 'Check eligibility' }).click();
  const result = page.getByTestId('verify-result');
  await expect(result).toBeFocused();
  await expect(result).toHaveAttribute('data-status', 'active');
  await expect(page.getByTestId('verify-announcement')).toHaveText(
    'Eligibility result: Active. Prior authorization required.',
  );
  await expect(page.getByTestId('verify-next-step')).toContainText(
    'Prior authorization is required for Health benefit plan coverage (30)',
  );
  await expect(result.getByRole('table', { name: 'Benefits' })).toBeVisible();

  // Subscriber not found: the payer's reason and the next step, and no grid of defaults.
  await page.getByLabel("Fill in from today's appointment").selectOption({ label: '10:30 AM · Emery Southside005' });
  await expect(page.getByLabel('Member id')).toHaveValue('DEMO-NOTFOUND-S005');
  await page.getByRole('button', { name: 'Check eligibility' }).click();
  await expect(result).toBeFocused();
  await expect(result).toHaveAttribute('data-status', 'unknown');
  await expect(page.getByTestId('verify-announcement')).toContainText('Eligibility result: Unknown.');
  await expect(page.getByTestId('verify-next-step')).toContainText('Next step:');
  await expect(result.getByRole('table', { name: 'Benefits' })).toHaveCount(0);
  await expect(result).not.toContainText('Not flagged');

  // A form error is a sentence next to its field.
  await page.getByLabel('Date of birth').fill('');
  await page.getByRole('button', { name: 'Check eligibility' }).click();
  await expect(page.getByTestId('verify-dob-error')).toHaveText('Enter the date of birth as on the card.');
  await expect(page.getByLabel('Date of birth')).toHaveAttribute('aria-invalid', 'true');

  // A payer the directory does not list is typed: its name and id; picking a listed one hides them again.
  const payer = page.getByLabel('Payer', { exact: true });
  await payer.selectOption({ label: 'Another payer (enter its name and payer id)' });
  await expect(page.getByLabel('Payer name')).toHaveValue('');
  await page.getByLabel('Payer name').fill('Regional Health Plan');
  await page.getByLabel('Payer id').fill('99999');
  await expect(payer).toHaveValue('__other');
  await payer.selectOption('60054');
  await expect(page.getByLabel('Payer name')).toHaveCount(0);
  await expect(payer).toHaveValue('60054');
});

test('the roster counts what needs attention and filters to it', async ({ page }) => {
  await fivePmInLosAngeles(page);
  await signIn(page, 'admin@southside.test');
  await page.goto('/eligibility/roster');
  await expect(page.locator('tbody tr')).toHaveCount(10);
  await checkRoster(page);

  // Inactive (_002), prior authorization (_003), out of network (_004), not found and payer down (_005, _006).
  await expect(page.getByTestId('summary-attention')).toHaveText('5');
  await page.getByLabel('Needs attention (5)').check();
  const rows = page.locator('tbody tr');
  await expect(rows).toHaveCount(5);
  for (const id of ['pat_s_002', 'pat_s_003', 'pat_s_004', 'pat_s_005', 'pat_s_006']) {
    await expect(page.getByTestId(`roster-row-${id}`)).toHaveAttribute('data-attention', /.+/);
  }
  await expect(page.getByTestId('roster-row-pat_s_004')).toContainText('out of network for the member');
  await expect(page.getByTestId('roster-row-pat_s_003')).toContainText('Health benefit plan coverage (30)');
  await page.getByLabel('All appointments (10)').check();
  await expect(rows).toHaveCount(10);
});

test('at phone width (390 px) the roster stacks into cards with no sideways scrolling and axe finds nothing serious', async ({
  page,
}) => {
  await fivePmInLosAngeles(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, 'admin@southside.test');
  await page.goto('/eligibility/roster');
  await expect(page.locator('tbody tr')).toHaveCount(10);
  await checkRoster(page);
  await page.getByLabel(/^Needs attention/).check();
  await expect(page.locator('tbody tr')).toHaveCount(5);
  // Each cell names its column on the card.
  const card = page.getByTestId('roster-row-pat_s_002');
  await expect(card.locator('td[data-label="What to do"]')).toBeVisible();
  await expectNoSidewaysScroll(page);
  await expectNoSeriousAxeViolations(page);
});

test('the front desk screens pass axe at desktop and phone width', async ({ page }) => {
  await fivePmInLosAngeles(page);
  await signIn(page, 'admin@southside.test');
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    for (const [path, ready] of [
      ['/eligibility/verify', "Fill in from today's appointment"],
      ['/patients', 'Name'],
      ['/patients/pat_s_001', 'Demographics'],
      ['/settings/clinic', "The clinic's time zone"],
    ] as const) {
      await page.goto(path);
      await expect(page.getByText(ready, { exact: true }).first()).toBeVisible();
      await expectNoSidewaysScroll(page);
      await expectNoSeriousAxeViolations(page);
    }
  }
});

test('patients: search, the record with coverage and eligibility history, and the way to verify', async ({ page }) => {
  await fivePmInLosAngeles(page);
  await signIn(page, 'admin@southside.test');
  await page.goto('/patients');
  await page.getByLabel('Name').fill('southside004');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.locator('tbody tr')).toHaveCount(1);
  await page.getByRole('link', { name: 'Southside004, Devon' }).click();
  await expect(page.getByRole('heading', { name: 'Devon Southside004' })).toBeVisible();
  await expect(page.getByTestId('coverage-on-file')).toContainText('DEMO-OON-S004');
  await expect(page.getByRole('button', { name: 'Change coverage on file' })).toBeVisible();
  await page.getByRole('link', { name: 'Verify eligibility' }).click();
  await expect(page.getByLabel('Member id')).toHaveValue('DEMO-OON-S004');
  await page.getByRole('button', { name: 'Check eligibility' }).click();
  await expect(page.getByTestId('verify-next-step')).toContainText('out of network');

  // The check is now in the patient's eligibility history.
  await page.goto('/patients/pat_s_004');
  await expect(page.getByRole('table', { name: 'Eligibility history' }).locator('tbody tr')).not.toHaveCount(0);
  await page.getByRole('link', { name: 'Back to the patients' }).click();
  await expect(page).toHaveURL(/\/patients$/);
});

test("a role without the scope reads a plain refusal: the front desk can't open clinic settings", async ({ page }) => {
  await signIn(page, 'frontdesk@northside.test');
  await page.goto('/settings/clinic');
  await expect(page.locator('main').getByRole('alert')).toHaveText("Your role can't do this; ask your clinic admin.");
  // Patients are theirs to read, without the coverage edit (claims:write).
  await page.goto('/patients/pat_n_001');
  await expect(page.getByTestId('coverage-on-file')).toContainText('Billing staff or an admin can change the coverage');
});

test('clinic settings: a save asks for a step-up, field errors are sentences next to their fields', async ({
  page,
}) => {
  await signIn(page, 'admin@northside.test');
  await page.goto('/settings/clinic');
  await expect(page.getByLabel("The clinic's time zone")).toHaveValue('America/New_York');
  // The number patient statements print (the demo clinic's).
  await expect(page.getByLabel('Phone for patients')).toHaveValue('5185550100');
  await page.getByLabel('Tax id (EIN)').fill('12');
  await page.getByRole('button', { name: 'Save settings' }).click();
  const dialog = page.getByRole('dialog', { name: "Confirm it's you" });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Your password').fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('clinic-taxId-error')).toHaveText('Enter the tax id: 9 digits');
  await expect(page.getByLabel('Tax id (EIN)')).toHaveAttribute('aria-invalid', 'true');

  // Corrected (and a name change), it saves within the claim's five minutes, with no second prompt.
  await page.getByLabel('Tax id (EIN)').fill('123456789');
  await page.getByLabel('Name', { exact: true }).fill('Northside Clinic Billing Office');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByTestId('clinic-settings-status')).toContainText('Saved.');
  await page.getByLabel('Name', { exact: true }).fill('Northside Clinic Billing');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByTestId('clinic-settings-status')).toContainText('Saved.');
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Northside Clinic Billing');
});
