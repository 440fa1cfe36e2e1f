import { test, expect } from 'playwright/test';
import { totpCode } from './totp-code';

test('a demo user signs in, sees the clinic, and signs out', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/login/);
  await page.getByLabel('E-mail').fill('frontdesk@northside.test');
  await page.getByLabel('Password').fill('demo-password-1');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('signed-in-as')).toHaveText('frontdesk@northside.test');
  await expect(page.getByTestId('clinic-name')).toHaveText('Northside Clinic');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login/);
  await page.goto('/');
  await expect(page).toHaveURL(/\/login/);
});

test('before the page hydrates, the sign-in form takes no input and could only post: no password in a URL', async ({
  browser,
}) => {
  // Scripts off stands for a page whose scripts have not run yet (a slow line): the bare HTML form submitted a GET to
  // /login?email=...&password=... there, the password landing in history and access logs.
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/login');
  await expect(page.getByLabel('E-mail')).toBeDisabled();
  await expect(page.getByLabel('Password')).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeDisabled();
  await expect(page.locator('form')).toHaveAttribute('method', 'post');
  await context.close();
});

test('before the page hydrates, Sign out is held: a click then would leave the session signed in', async ({
  browser,
}) => {
  const signedIn = await browser.newContext();
  const page = await signedIn.newPage();
  await page.goto('/login');
  await page.getByLabel('E-mail').fill('frontdesk@northside.test');
  await page.getByLabel('Password').fill('demo-password-1');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('signed-in-as')).toHaveText('frontdesk@northside.test');
  // At phone width, where the Menu button shows.
  const withoutScripts = await browser.newContext({
    javaScriptEnabled: false,
    viewport: { width: 390, height: 800 },
    storageState: await signedIn.storageState(),
  });
  const held = await withoutScripts.newPage();
  await held.goto('/');
  await expect(held.getByTestId('signed-in-as')).toHaveText('frontdesk@northside.test');
  await expect(held.getByRole('button', { name: 'Sign out' })).toBeDisabled();
  await expect(held.getByRole('button', { name: 'Menu' })).toBeDisabled();
  // The same page with its scripts: Sign out works.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login/);
  await Promise.all([signedIn.close(), withoutScripts.close()]);
});

test('a wrong password shows a clear error', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill('billing@northside.test');
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.locator('form [role=alert]')).toHaveText('The e-mail, password or code is not correct');
});

test('a user with MFA is asked for the code and signs in with it', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill('mfa@northside.test');
  await page.getByLabel('Password').fill('demo-password-1');
  await page.getByRole('button', { name: 'Sign in' }).click();
  const code = page.getByLabel('Authentication code');
  await expect(code).toBeVisible();
  await code.fill(totpCode('JBSWY3DPEHPK3PXP'));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('signed-in-as')).toHaveText('mfa@northside.test');
});

test('a callbackUrl naming another site lands on a same-origin page, with no CSP violation on the way', async ({
  page,
}) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.goto('/login?callbackUrl=/%5Cevil.example');
  await page.getByLabel('E-mail').fill('frontdesk@northside.test');
  await page.getByLabel('Password').fill('demo-password-1');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('signed-in-as')).toHaveText('frontdesk@northside.test');
  expect(new URL(page.url()).origin).toBe(new URL(test.info().project.use.baseURL!).origin);
  expect(violations).toEqual([]);
});
