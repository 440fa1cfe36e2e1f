// The security screen in Chromium: MFA enrolment from the QR screen (the code computed here from the shown secret)
// through the step-up dialog, sign-in with it, a new set of backup codes and turning it off, each through the
// step-up dialog; a passkey registered through Chromium's virtual authenticator (CDP WebAuthn domain), then used to
// pass the step-up that removes it.
// State: admin@northside.test ends with MFA off again, admin@southside.test with no passkey, as the seed left them.
import fs from 'node:fs';
import { test, expect, type Page } from 'playwright/test';
import { totpCode } from './totp-code';

const PASSWORD = 'demo-password-1';

async function signIn(page: Page, email: string, code?: string) {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  if (code !== undefined) {
    await page.getByLabel('Authentication code').fill(code);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }
  await expect(page.getByTestId('signed-in-as')).toHaveText(email);
}

/** Waits until at least `seconds` remain in the current 30 s TOTP step, so two computed codes stay in the window. */
async function waitForFreshStep(seconds = 8) {
  const left = 30_000 - (Date.now() % 30_000);
  if (left < seconds * 1000) await new Promise((r) => setTimeout(r, left + 500));
}

test('enrol MFA from the QR screen after a step-up, sign in with a code, make new backup codes, then turn it off', async ({
  page,
}) => {
  const email = 'admin@northside.test';
  await signIn(page, email);
  await page.goto('/settings/security');
  await expect(page.getByTestId('mfa-status')).toContainText('Off.');

  await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
  const qr = page.getByRole('img', { name: 'QR code to add this account to your authenticator app' });
  await expect(qr).toBeVisible();
  // Rendered locally: the otpauth secret never leaves the browser for a QR service.
  expect(await qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
  const secret = (await page.getByTestId('mfa-secret').textContent())!.trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);

  // Confirm with the previous step's code (accepted: ±1 step), so the current step's code is still unused for
  // the sign-in below; the server refuses a step it has already accepted. Room for the step-up dialog too.
  await waitForFreshStep(20);
  await page.getByLabel('Code from your app').fill(totpCode(secret, Date.now() - 30_000));
  await page.getByRole('button', { name: 'Turn on two-step verification' }).click();
  // Turning it on is an MFA change: the step-up dialog asks for the password (the only factor yet) first.
  const enableDialog = page.getByRole('dialog', { name: "Confirm it's you" });
  await expect(enableDialog.getByTestId('step-up-description')).toHaveText('Turn on two-step verification');
  await enableDialog.getByLabel('Your password').fill(PASSWORD);
  await enableDialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(enableDialog).toBeHidden();

  const codes = page.getByTestId('backup-codes').getByRole('listitem');
  await expect(codes).toHaveCount(10);
  const backupCodes = (await codes.allTextContents()).map((c) => c.trim());
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download codes' }).click(),
  ]);
  const downloaded = fs.readFileSync((await download.path())!, 'utf8');
  for (const code of backupCodes) expect(downloaded).toContain(code);

  await page.getByRole('button', { name: 'I saved my codes' }).click();
  await page.getByRole('button', { name: 'Sign in again' }).click();
  await expect(page).toHaveURL(/\/login/);

  await signIn(page, email, totpCode(secret));
  await page.goto('/settings/security');
  await expect(page.getByTestId('mfa-status')).toContainText('On. 10 backup codes left.');

  // New backup codes, behind a step-up: a fresh set of 10 replaces every earlier code.
  await page.getByRole('button', { name: 'Make new backup codes' }).click();
  const codesDialog = page.getByRole('dialog', { name: "Confirm it's you" });
  await expect(codesDialog.getByTestId('step-up-description')).toHaveText(
    'Make new backup codes (your old ones stop working)',
  );
  await codesDialog.getByRole('radio', { name: 'Password' }).check();
  await codesDialog.getByLabel('Your password').fill(PASSWORD);
  await codesDialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(codesDialog).toBeHidden();
  await expect(page.getByRole('heading', { name: 'Save your new backup codes' })).toBeVisible();
  const fresh = page.getByTestId('backup-codes').getByRole('listitem');
  await expect(fresh).toHaveCount(10);
  const newCodes = (await fresh.allTextContents()).map((c) => c.trim());
  expect(newCodes.filter((code) => backupCodes.includes(code))).toEqual([]);
  await page.getByRole('button', { name: 'I saved my codes' }).click();
  await expect(page.getByTestId('mfa-status')).toContainText('On. 10 backup codes left.');
  // The old sheet is void: turning MFA off with one of its codes is refused (the claim just given still holds).
  await page.getByLabel('Code from your app or a backup code').fill(backupCodes[0]!);
  await page.getByRole('button', { name: 'Turn off two-step verification' }).click();
  const refused = page.getByRole('alert').filter({ hasText: 'not valid or was already used' });
  await expect(refused).toBeVisible();
  // Every screen shows a failure through ErrorNote: the sentence, and the request's reference small for support.
  await expect(refused.locator('.error-reference')).toHaveText(/^ Reference: [0-9a-f-]{36}$/);
  await page.context().clearCookies({ name: 'svc-step-up' });

  // Turning it off needs a step-up: the dialog opens, offers the code by default, and takes the password.
  await page.getByLabel('Code from your app or a backup code').fill(newCodes[0]!);
  await page.getByRole('button', { name: 'Turn off two-step verification' }).click();
  const dialog = page.getByRole('dialog', { name: "Confirm it's you" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('radio', { name: 'Authenticator code' })).toBeChecked();
  await dialog.getByRole('radio', { name: 'Password' }).check();
  await dialog.getByLabel('Your password').fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('status')).toContainText('Two-step verification is off');

  await page.getByRole('button', { name: 'Sign in again' }).click();
  // The button signs out, then navigates to /login itself: wait for that before signIn() opens /login too.
  await expect(page).toHaveURL(/\/login/);
  await signIn(page, email); // no code asked any more
});

test('register a passkey with a virtual authenticator, then pass a step-up with it to remove it', async ({
  page,
  context,
}) => {
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });

  await signIn(page, 'admin@southside.test');
  await page.goto('/settings/security');
  await expect(page.getByTestId('no-passkeys')).toBeVisible();

  // Adding a passkey is a credential change: the step-up dialog asks for the password first (the only factor).
  await page.getByLabel('Name for a new passkey (optional)').fill('E2E key');
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  const dialog = page.getByRole('dialog', { name: "Confirm it's you" });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Your password').fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByTestId('passkey-row')).toHaveCount(1);
  await expect(page.getByTestId('passkey-row')).toContainText('E2E key');
  // Added on the clinic's clock in the app's format ("Nov 28, 2026, 9:41 AM EST"), not as 11/28/2026.
  await expect(page.getByTestId('passkey-row')).toContainText(/[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M/);
  await expect(page.getByTestId('passkey-row')).not.toContainText(/\d{1,2}\/\d{1,2}\/\d{4}/);
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(1);

  // A fresh step-up is needed to remove it: drop the password claim, then confirm with the passkey itself.
  await context.clearCookies({ name: 'svc-step-up' });
  await page.getByRole('button', { name: 'Remove passkey E2E key' }).click();
  await expect(dialog).toBeVisible();
  await dialog.getByRole('radio', { name: 'Passkey' }).check();
  const verified = page.waitForResponse(
    (r) => r.url().endsWith('/api/auth/step-up') && r.request().postDataJSON()?.step === 'verify',
  );
  await dialog.getByRole('button', { name: 'Use passkey' }).click();
  const stepUp = await verified;
  expect(stepUp.status()).toBe(200);
  expect(JSON.parse(Buffer.from((await stepUp.json()).stepUpToken.split('.')[1], 'base64url').toString()).amr).toEqual([
    'webauthn',
  ]);
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('no-passkeys')).toBeVisible();
});
