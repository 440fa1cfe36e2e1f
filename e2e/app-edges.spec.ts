// The edges of the app a person meets (issue #28 item 9): an unknown address, a record that does not exist, the
// browser's favicon request and the patient record on a phone.
import AxeBuilder from '@axe-core/playwright';
import { test, expect, type Page } from 'playwright/test';

async function signIn(page: Page, email: string) {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill('demo-password-1');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('signed-in-as')).toHaveText(email);
}

const seriousViolations = async (page: Page) =>
  (await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze()).violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ rule: v.id, targets: v.nodes.map((n) => n.target.join(' ')).slice(0, 5) }));

for (const width of [1280, 390]) {
  test(`an unknown address is a 404 page with the header and a way home, axe clean at ${width} px`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 844 });
    await signIn(page, 'billing@northside.test');
    const response = await page.goto('/no-such-screen');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    await expect(page).toHaveTitle(/Page not found/);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'Go to the home page' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId('signed-in-as')).toHaveText('billing@northside.test');
  });
}

test('a claim or a remittance that does not exist says so and leads back to its list', async ({ page }) => {
  await signIn(page, 'billing@northside.test');
  await page.goto('/claims/clm_0000000000000000');
  await expect(page.locator('main').getByRole('alert')).toContainText('No such claim');
  await page.getByRole('link', { name: 'Back to the claims' }).click();
  await expect(page).toHaveURL(/\/claims$/);
  await page.goto('/remittances/era_does_not_exist');
  await expect(page.locator('main').getByRole('alert')).toBeVisible();
  await page.getByRole('link', { name: 'Back to the remittances' }).click();
  await expect(page).toHaveURL(/\/remittances$/);
});

test('the favicon is served', async ({ request }) => {
  const response = await request.get('/favicon.ico');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toMatch(/image\//);
  expect((await response.body()).subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0])); // an ICO header
});

test('on a phone the patient record shows coverage values whole, each under its label', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, 'frontdesk@northside.test');
  await page.goto('/patients/pat_n_001');
  const coverage = page.getByTestId('coverage-on-file');
  await expect(coverage).toContainText('DEMO-ACTIVE-N001');
  // The member id fits on one line: its box is one line tall and wider than the text needs at 390 px.
  const memberId = coverage.locator('dd', { hasText: 'DEMO-ACTIVE-N001' });
  const box = await memberId.boundingBox();
  const lineHeight = await memberId.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight) || 24);
  expect(box!.height).toBeLessThan(lineHeight * 1.5);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  // The front desk is told who can change the coverage, in words, not a scope code.
  await expect(page.getByText('Billing staff or an admin can change the coverage on file.')).toBeVisible();
  await expect(page.getByText(/claims:write/)).toHaveCount(0);
});

test("on a phone the roster's cards are dense: ten patients in under 4,200 px, two facts a row", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, 'frontdesk@northside.test');
  await page.goto('/eligibility/roster');
  await page.getByRole('button', { name: 'Check eligibility' }).click();
  await expect(page.getByTestId('progress')).toContainText('Checked 10 of 10');
  // Before the cards were dense the ten took about 6,000 px (one fact a line, a 8.5rem label column).
  expect((await page.locator('table.fd-cards').boundingBox())!.height).toBeLessThan(4200);
  const row = page.getByTestId('roster-row-pat_n_001');
  const network = await row.locator('td[data-label="Network"]').boundingBox();
  const copay = await row.locator('td[data-label="Copay (primary / specialist)"]').boundingBox();
  expect(Math.abs(network!.y - copay!.y)).toBeLessThan(2); // side by side
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
