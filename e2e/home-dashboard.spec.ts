// Issue #27 in a browser, at 1280 and 390 px: the home shows each role only what it can open and every count links
// to the list it counts; the revenue dashboard draws its charts beside tables of their numbers; the header keeps
// one row at 1280 px and hides its links behind a Menu button on a phone; no screen scrolls sideways at 390 px;
// axe finds no serious or critical violation on the new screens.
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

const sidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

const ROLES = [
  { email: 'frontdesk@northside.test', sections: ['front-desk', 'claims', 'denials'] },
  { email: 'billing@northside.test', sections: ['claims', 'denials', 'money'] },
  { email: 'admin@northside.test', sections: ['front-desk', 'claims', 'denials', 'money', 'admin', 'integrations'] },
];
const ALL_SECTIONS = ['front-desk', 'claims', 'denials', 'money', 'admin', 'integrations'];

for (const width of [1280, 390]) {
  for (const role of ROLES) {
    test(`${role.email} at ${width} px: the home shows only what the role can open, each count a link`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 900 });
      await signIn(page, role.email);
      await expect(page.getByRole('heading', { level: 1, name: 'Today’s work' })).toBeVisible();
      await expect(page.getByTestId(`home-${role.sections[0]}`)).toBeVisible();
      for (const section of ALL_SECTIONS)
        await expect(page.getByTestId(`home-${section}`)).toHaveCount(role.sections.includes(section) ? 1 : 0);
      // Every count is a link to a screen the role's own navigation offers (or the roster/claims filters of one).
      const navHrefs = await page
        .locator('#main-nav a')
        .evaluateAll((links) => links.map((a) => new URL((a as HTMLAnchorElement).href).pathname));
      const countHrefs = await page
        .locator('.count-link')
        .evaluateAll((links) => links.map((a) => new URL((a as HTMLAnchorElement).href).pathname));
      expect(countHrefs.length).toBeGreaterThan(0);
      for (const href of countHrefs) expect(navHrefs).toContain(href);
      expect(await sidewaysScroll(page)).toBeLessThanOrEqual(width);
      expect(await seriousViolations(page)).toEqual([]);

      const header = (await page.locator('header.top').boundingBox())!;
      if (width === 1280) {
        // One row: the brand, the links and the account side by side.
        expect(header.height).toBeLessThan(70);
        await expect(page.getByRole('button', { name: 'Menu' })).toBeHidden();
      } else {
        await expect(page.locator('#main-nav')).toBeHidden();
        await page.getByRole('button', { name: 'Menu' }).click();
        await expect(page.locator('#main-nav')).toBeVisible();
        await expect(page.getByRole('button', { name: 'Menu' })).toHaveAttribute('aria-expanded', 'true');
      }
    });
  }

  if (width === 1280)
    test('the header marks the screen in view, scrolled into its one row for a role with more links than fit', async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 900 });
      await signIn(page, 'admin@northside.test');
      const nav = page.getByRole('navigation', { name: 'Main' });
      for (const [path, link] of [
        ['/settings/security', 'Security'],
        ['/claims/new', 'Claims'],
        ['/admin/audit', 'Audit log'],
      ]) {
        await page.goto(path!);
        await expect(nav.locator('[aria-current="page"]')).toHaveText(link!);
        // Eighteen links do not fit the row: the current one is scrolled into the row's view, not clipped by it.
        await expect(nav.getByRole('link', { name: link, exact: true })).toBeInViewport();
      }
      expect((await page.locator('header.top').boundingBox())!.height).toBeLessThan(70);
    });

  test(`billing's claim counts open the queue filtered to that state at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await signIn(page, 'billing@northside.test');
    // A draft of billing's own, so the count has something to open whatever the demo holds.
    const draft = await page.request.post('/api/claims', {
      data: {
        patientId: 'pat_n_008',
        serviceDate: '2026-11-20',
        diagnoses: ['J06.9'],
        lines: [{ procedureCode: '99213', units: 1, chargeCents: 15_000, diagnosisPointers: [1] }],
      },
    });
    expect(draft.status(), await draft.text()).toBe(201);
    await page.reload();
    const first = page.locator('[data-testid^="count-claims-"]').first();
    await expect(first).toBeVisible();
    const status = (await first.getAttribute('data-testid'))!.replace('count-claims-', '');
    const count = Number(await first.locator('.count').textContent());
    await first.click();
    await expect(page).toHaveURL(new RegExp(`/claims\\?status=${status}$`));
    await expect(page.getByTestId('claims-count')).toContainText(String(count));
    await expect(page.locator(`[data-status]`).first()).toHaveAttribute('data-status', status);
  });

  test(`the revenue dashboard draws each panel with a table of its numbers at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await signIn(page, 'billing@northside.test');
    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { level: 1, name: 'Revenue dashboard' })).toBeVisible();
    for (const panel of ['ar-aging', 'collections', 'denials', 'clean-claims']) {
      const section = page.getByTestId(`panel-${panel}`);
      await expect(section.locator('table caption')).toBeVisible();
      // Every column of the numbers is inside its panel, none cut off by the panel's edge.
      const [panelBox, tableBox] = [await section.boundingBox(), await section.locator('table').boundingBox()];
      expect(tableBox!.x + tableBox!.width, panel).toBeLessThanOrEqual(panelBox!.x + panelBox!.width);
      // The caption runs the table's width (as a table of its own it was a word a line at phone width).
      const captionBox = await section.locator('table caption').boundingBox();
      expect(captionBox!.width, panel).toBeGreaterThan(tableBox!.width * 0.9);
      // A code (CO-50) is on one line, not broken at its hyphen by a narrow column.
      const broken = await section.locator('td.whole').evaluateAll((cells) =>
        cells.filter((cell) => {
          const text = document.createRange();
          text.selectNodeContents(cell);
          return text.getClientRects().length > 1;
        }),
      );
      expect(broken, panel).toHaveLength(0);
      await expect(section.locator('.chart-box svg').first()).toBeAttached();
      await expect(section.getByRole('link', { name: /Download CSV/ })).toHaveAttribute(
        'href',
        new RegExp(`^/api/dashboard/${panel}\\?format=csv`),
      );
    }
    await expect(page.getByTestId('kpi-days-in-ar')).toBeVisible();
    expect(await sidewaysScroll(page)).toBeLessThanOrEqual(width);
    expect(await seriousViolations(page)).toEqual([]);
  });
}

test('the front desk does not get the dashboard: no link, and the page says so', async ({ page }) => {
  await signIn(page, 'frontdesk@northside.test');
  await expect(page.locator('#main-nav').getByRole('link', { name: 'Dashboard' })).toHaveCount(0);
  await page.goto('/dashboard');
  await expect(page.getByTestId('no-access')).toBeVisible();
});

test('the invite form on Users fits a 390 px phone', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, 'admin@northside.test');
  await page.goto('/admin/users');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(await sidewaysScroll(page)).toBeLessThanOrEqual(390);
});
