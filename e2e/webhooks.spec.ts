// Settings → Webhooks in Chromium (issue #25 item 4): the admin registers an endpoint through the step-up dialog
// and sees its secret once, a test event reaches a local receiver (signed under that secret) and shows as
// delivered, a rotation shows the new secret, and an endpoint that answers 410 is shown disabled with the reason.
// State: the endpoints it registers are deleted at the end.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHmac } from 'node:crypto';
import { test, expect, type Page } from 'playwright/test';

const PASSWORD = 'demo-password-1';

async function signIn(page: Page, email: string) {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('signed-in-as')).toHaveText(email);
}

async function confirmStepUp(page: Page, description: string) {
  const dialog = page.getByRole('dialog', { name: "Confirm it's you" });
  await expect(dialog.getByTestId('step-up-description')).toHaveText(description);
  await dialog.getByLabel('Your password').fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog).toBeHidden();
}

test('register, test, rotate and the disabled notice on Settings → Webhooks', async ({ page }) => {
  const received: { path: string; body: string; signature: string }[] = [];
  const receiver = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      received.push({
        path: req.url ?? '',
        body: Buffer.concat(parts).toString('utf8'),
        signature: String(req.headers['x-svc-signature']),
      });
      res.writeHead(req.url === '/gone' ? 410 : 204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  try {
    await signIn(page, 'admin@northside.test');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
    await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();
    // The list loads once the screen is hydrated: a URL typed before that is in the field but not in the form's
    // state, and the button stays disabled (seen on two loaded cores).
    await expect(page.getByText('No endpoints yet.')).toBeVisible();

    await page.getByLabel('Endpoint URL (https)').fill(`${base}/hooks`);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await confirmStepUp(page, `Send the clinic's events to ${base}/hooks`);
    const secret = (await page.getByTestId('webhook-secret').locator('code').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_/);
    const card = page.getByRole('region', { name: `Endpoint ${base}/hooks` });

    await card.getByRole('button', { name: 'Send test event' }).click();
    await expect.poll(() => received.filter((r) => r.path === '/hooks').length, { timeout: 15_000 }).toBe(1);
    const got = received.find((r) => r.path === '/hooks')!;
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
    expect(got.signature).toBe(`sha256=${createHmac('sha256', key).update(got.body).digest('hex')}`);
    await expect(async () => {
      await page.reload();
      await expect(page.getByRole('region', { name: `Endpoint ${base}/hooks` })).toContainText('Delivered', {
        timeout: 1000,
      });
    }).toPass({ timeout: 15_000 });

    // The step-up of a moment ago still holds (300 s): no dialog this time.
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    const rotated = (await page.getByTestId('webhook-secret').locator('code').textContent()) ?? '';
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await expect(page.getByRole('region', { name: `Endpoint ${base}/hooks` })).toContainText(
      'The previous secret also signs until',
    );

    // An endpoint that answers 410 Gone is disabled at once, and the screen says so.
    await page.getByLabel('Endpoint URL (https)').fill(`${base}/gone`);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page
      .getByRole('region', { name: `Endpoint ${base}/gone` })
      .getByRole('button', { name: 'Send test event' })
      .click();
    await expect(async () => {
      await page.reload();
      await expect(
        page.getByRole('region', { name: `Endpoint ${base}/gone` }).getByTestId('endpoint-disabled'),
      ).toContainText('The endpoint answered 410 Gone', { timeout: 1000 });
    }).toPass({ timeout: 15_000 });

    for (const path of ['/hooks', '/gone']) {
      await page
        .getByRole('region', { name: `Endpoint ${base}${path}` })
        .getByRole('button', { name: 'Delete' })
        .click();
      await expect(page.getByRole('region', { name: `Endpoint ${base}${path}` })).toHaveCount(0);
    }
  } finally {
    await new Promise((resolve) => receiver.close(resolve));
  }
});
