// The admin screens in Chromium (issue #15 items 6-8): sign-in warns when one attempt is left and then locks;
// an admin unlocks that user through the step-up dialog, which says what it confirms (cancelling it is no error),
// and the audit screen then shows the unlock; after signing out and in again the next change asks again.
// State: billing@northside.test ends unlocked, as the seed left it.
import { test, expect, type Page } from 'playwright/test';

const PASSWORD = 'demo-password-1';
const LOCKED_USER = 'billing@northside.test';
const ADMIN = 'admin@northside.test';

async function fillSignIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function signIn(page: Page, email: string) {
  await fillSignIn(page, email, PASSWORD);
  await expect(page.getByTestId('signed-in-as')).toHaveText(email);
}

test('sign-in warns on the last attempt; an admin unlocks with step-up and the audit log shows it', async ({
  page,
}) => {
  for (let i = 1; i <= 3; i++) {
    await fillSignIn(page, LOCKED_USER, `wrong password ${i}`);
    await expect(page.locator('form [role=alert]')).toHaveText('The e-mail, password or code is not correct');
  }
  await fillSignIn(page, LOCKED_USER, 'wrong password 4');
  await expect(page.locator('form [role=alert]')).toHaveText(
    'The e-mail, password or code is not correct. One more failed attempt locks the account for 15 minutes.',
  );
  await fillSignIn(page, LOCKED_USER, 'wrong password 5');
  await expect(page.locator('form [role=alert]')).toContainText('The account is locked');

  await signIn(page, ADMIN);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).click();
  await expect(page.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();
  const row = page.getByTestId(`user-${LOCKED_USER}`);
  await expect(row).toContainText('Locked');

  // Cancelling the step-up changes nothing and shows no error.
  await row.getByRole('button', { name: `Unlock ${LOCKED_USER}` }).click();
  const dialog = page.getByRole('dialog', { name: "Confirm it's you" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('step-up-description')).toHaveText(`Unlock ${LOCKED_USER}`);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  // (Next's route announcer is an alert too, outside main.)
  await expect(page.getByRole('main').getByRole('alert')).toHaveCount(0);
  await expect(row).toContainText('Locked');

  await row.getByRole('button', { name: `Unlock ${LOCKED_USER}` }).click();
  await expect(dialog.getByTestId('step-up-description')).toHaveText(`Unlock ${LOCKED_USER}`);
  await dialog.getByLabel('Your password').fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText(`Done: Unlock ${LOCKED_USER}.`)).toBeVisible();
  await expect(row).not.toContainText('Locked');

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByRole('heading', { name: 'Audit log', level: 1 })).toBeVisible();
  const unlock = page.locator('[data-testid=audit-entry][data-action="users.unlock"]').first();
  await expect(unlock).toContainText('User unlocked');
  await expect(unlock).toContainText(ADMIN);
  await page.getByLabel('Action').selectOption('users.unlock');
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(page).toHaveURL(/action=users\.unlock/);
  await expect(page.getByTestId('audit-entry').first()).toContainText('User unlocked');

  // Signing out ends the step-up too: the next change after signing in again asks once more.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login/);
  await signIn(page, ADMIN);
  await page.goto('/admin/users');
  await page.getByRole('button', { name: 'Deactivate frontdesk@northside.test' }).click();
  await expect(dialog.getByTestId('step-up-description')).toHaveText('Deactivate frontdesk@northside.test');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('user-frontdesk@northside.test')).not.toContainText('Deactivated');

  // The unlocked user signs in again.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login/);
  await signIn(page, LOCKED_USER);
});

test('an admin invites a user with some of their scopes; the invitee sets a password from the link and signs in', async ({
  page,
}) => {
  const email = `invitee-${Date.now()}@northside.test`;
  await signIn(page, ADMIN);
  await page.goto('/admin/users');
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('checkbox', { name: /See claims and denials/ }).check();
  await page.getByRole('button', { name: 'Invite' }).click();
  const dialog = page.getByRole('dialog', { name: "Confirm it's you" });
  await expect(dialog.getByTestId('step-up-description')).toHaveText(`Invite ${email}`);
  await dialog.getByLabel('Your password').fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  // The expiry is written the app's way (Nov 28, 2026), not the browser's locale (11/28/2026).
  await expect(page.getByText(/works once and until [A-Z][a-z]{2} \d{1,2}, \d{4}\./)).toBeVisible();
  const link = await page.getByLabel('Invitation link').inputValue();
  expect(link).toMatch(/\/login\/accept\?token=/);
  await expect(page.getByTestId(`user-${email}`)).toContainText('Invited, not yet signed up');

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login/);
  await page.goto(link);
  await page.getByLabel('New password', { exact: true }).fill('a long invited password');
  await page.getByLabel('New password again').fill('a long invited password');
  await page.getByRole('button', { name: 'Set password' }).click();
  await expect(page.getByRole('status')).toContainText('Your password is set');
  await page.getByRole('link', { name: `Sign in as ${email}` }).click();
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill('a long invited password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('signed-in-as')).toHaveText(email);
  // Their role sees only its screens.
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' })).toHaveCount(0);
});

test('role presets fill the scope checkboxes; an admin changes a user’s scopes after the invite', async ({ page }) => {
  const email = `preset-${Date.now()}@northside.test`;
  await signIn(page, ADMIN);
  await page.goto('/admin/users');
  const invite = page.getByRole('region', { name: 'Invite someone' });
  await invite.getByRole('button', { name: 'Billing' }).click();
  await expect(invite.getByRole('checkbox', { name: /Post remittances, move money/ })).toBeChecked();
  await expect(invite.getByRole('checkbox', { name: /See patients/ })).not.toBeChecked();
  await invite.getByRole('button', { name: 'Front desk' }).click();
  await expect(invite.getByRole('checkbox', { name: /See patients/ })).toBeChecked();
  await expect(invite.getByRole('checkbox', { name: /Post remittances, move money/ })).not.toBeChecked();
  await invite.getByLabel('E-mail').fill(email);
  await invite.getByRole('button', { name: 'Invite' }).click();
  const dialog = page.getByRole('dialog', { name: "Confirm it's you" });
  await dialog.getByLabel('Your password').fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  const row = page.getByTestId(`user-${email}`);
  await expect(row).toContainText('eligibility:read, patients:read, appointments:read, claims:read');

  // Later, the same person moves to billing: the edit form starts from their scopes and takes a preset.
  await row.getByRole('button', { name: `Change scopes of ${email}` }).click();
  const edit = page.getByRole('form', { name: `Change what ${email} may do` });
  await expect(edit.getByRole('checkbox', { name: /See patients/ })).toBeChecked();
  await edit.getByRole('button', { name: 'Billing' }).click();
  await page.context().clearCookies({ name: 'svc-step-up' });
  await edit.getByRole('button', { name: 'Save scopes' }).click();
  await expect(dialog.getByTestId('step-up-description')).toHaveText(`Change the scopes of ${email}`);
  await dialog.getByLabel('Your password').fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Done: ${email} now has` })).toBeVisible();
  await expect(row).toContainText('claims:read, claims:write, svcpay:read, svcpay:write');
});
