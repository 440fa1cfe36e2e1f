// What the billing browser tests set up through the API before a user opens a screen: signed-in pages, an
// eligibility check of a patient's coverage on file (claims need an active one from the last 24 hours, and billing
// staff cannot check eligibility, so an admin does), and claims created and submitted as the billing user.
import AxeBuilder from '@axe-core/playwright';
import { expect, type Browser, type Page } from 'playwright/test';

export const PASSWORD = 'demo-password-1';
// Northside's billing provider NPI (DECISIONS "Demo tenant").
const NORTHSIDE_NPI = '1234567893';

export async function signIn(page: Page, email: string) {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('signed-in-as')).toHaveText(email);
}

/** A page of a fresh browser context signed in as `email`; its `request` carries that session. */
export async function signedInPage(browser: Browser, email: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, email);
  return page;
}

/** An active eligibility check of the patient's coverage on file as it is now, through the API (admin's page). */
export async function verifyCoverageOnFile(admin: Page, patientId: string) {
  const patient = await admin.request.get(`/api/patients/${patientId}`);
  expect(patient.status(), `GET /api/patients/${patientId}`).toBe(200);
  const { firstName, lastName, birthDate, coverage } = await patient.json();
  const check = await admin.request.post('/api/eligibility/verify', {
    data: {
      patientId,
      firstName,
      lastName,
      dob: birthDate,
      memberId: coverage.memberId,
      payerName: coverage.payerName ?? 'Aetna',
      payerId: coverage.payerId,
      npi: NORTHSIDE_NPI,
    },
  });
  expect(check.status(), 'POST /api/eligibility/verify').toBe(200);
  expect((await check.json()).status).toBe('active');
}

/** Creates a draft and submits it (stepping up with the password first); the claim as submit answered it. */
export async function submitClaimThroughApi(
  billing: Page,
  claim: { patientId: string; serviceDate: string; diagnoses: string[]; lines: Record<string, unknown>[] },
): Promise<{ claimId: string; status: string }> {
  const draft = await billing.request.post('/api/claims', { data: claim });
  expect(draft.status(), `POST /api/claims: ${await draft.text()}`).toBe(201);
  const { claimId } = await draft.json();
  const stepUp = await billing.request.post('/api/auth/step-up', { data: { factor: 'password', password: PASSWORD } });
  expect(stepUp.status(), 'POST /api/auth/step-up').toBe(200);
  const submitted = await billing.request.post('/api/claims/submit', {
    data: { claimId, idempotencyKey: `e2e-${claimId}` },
  });
  expect(submitted.status(), `POST /api/claims/submit: ${await submitted.text()}`).toBe(200);
  return { claimId, status: (await submitted.json()).status };
}

/**
 * At phone width (390 px) the page has no sideways scrolling (tables become cards) and axe finds no serious or
 * critical violation. Restores the viewport it found.
 */
export async function expectPhoneFriendly(page: Page) {
  const before = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  // Measured once the narrow layout has settled: right after the resize a hidden table header can still stand
  // where the wide layout put it for a frame.
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), {
      message: `${page.url()} scrolls sideways at 390 px`,
      timeout: 5_000,
    })
    .toBeLessThanOrEqual(0);
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    page.url(),
  ).toEqual([]);
  if (before) await page.setViewportSize(before);
}
