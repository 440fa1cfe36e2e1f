// The progress of a big ERA posting in the background, over real HTTP and PostgreSQL (issue #26): a web-only
// instance (APP_ROLE=web, it works no job) answers the >500-claim era.received webhook 202 and lists the posting
// as queued; a worker instance started on the same database then runs the real pg-boss job, and the web instance
// lists it posted, with every claim counted and its remittance id. A posting whose claims stopped being sendable
// after it was queued shows its failed attempt with the reason in words, then posts on the retry once they are
// again. Another clinic never sees either. The remittance screen, open in Debian's Chromium throughout, shows each
// unfinished one with its progress bar and, reading again by itself, moves the posted one into its list.
import { randomUUID } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import { chromium, expect as expectPage, type Browser, type Page } from 'playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyedJobId } from '@/lib/background/keyed-job-id';
import { ERA_POST_QUEUE } from '@/lib/remittances/era-post-job';
import type { EraPostingList } from '@/lib/remittances/list-era-postings';
import { signBody } from '@/lib/webhooks/verify-signature';
import { build835 } from '@/lib/x12/fixtures/build-835';
import { startApp, TEST_SECRETS, type TestApp } from '../support/app';
import { createTenant, createUser, type TestTenant } from '../support/factories';
import { HttpClient, signIn } from '../support/http';
import { largeClaimSet, largeRemittance, seedClaims } from '../support/large-835';
import { createTestDatabase, type TestDatabase } from '../support/postgres';
import { until } from '../support/until';

const CLAIMS = 600;
const uid = (prefix: string) => `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 16)}`;

let database: TestDatabase;
let web: TestApp;
let worker: TestApp | undefined;
let north: TestTenant;
let south: TestTenant;
let northStaff: HttpClient;
let southStaff: HttpClient;
let browser: Browser | undefined;
/** North's remittance screen, opened once the postings are queued and left open. */
let screen: Page;

beforeAll(async () => {
  database = await createTestDatabase();
  web = await startApp({ reuse: database, env: { APP_ROLE: 'web' } });
  north = await createTenant(web.db, 'North');
  south = await createTenant(web.db, 'South');
  const northUser = await createUser(web.db, north, { scopes: ['svcpay:read'] });
  northStaff = await signIn(web, northUser.email, northUser.password);
  const southUser = await createUser(web.db, south, { scopes: ['svcpay:read'] });
  southStaff = await signIn(web, southUser.email, southUser.password);
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
  screen = await (await browser.newContext()).newPage();
  await screen.goto(`${web.url}/login`);
  await screen.getByLabel('E-mail').fill(northUser.email);
  await screen.getByLabel('Password').fill(northUser.password);
  await screen.getByRole('button', { name: 'Sign in' }).click();
  await screen.getByTestId('signed-in-as').waitFor();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await worker?.stop();
  await web?.stop();
  await database?.drop();
});

/** An era.received delivery of the clinic's 835, signed as the clearinghouse signs it. */
async function deliverEra(clinicId: string, x12: string): Promise<string> {
  const deliveryId = uid('dlv');
  const raw = JSON.stringify({
    id: uid('evt'),
    type: 'era.received',
    createdAt: new Date().toISOString(),
    clinicId,
    data: { x12 },
  });
  const res = await new HttpClient(web.url).request('POST', '/api/webhooks/era', {
    body: raw,
    headers: {
      'content-type': 'application/json',
      'x-svc-delivery': deliveryId,
      'x-svc-signature': signBody(Buffer.from(raw), TEST_SECRETS.WEBHOOK_SECRET_ERA),
    },
  });
  expect(res.status).toBe(202);
  expect(res.body).toMatchObject({ outcome: 'recorded', reason: 'remittance queued for posting' });
  return keyedJobId(ERA_POST_QUEUE, `${clinicId}:${deliveryId}`);
}

async function postingsOf(client: HttpClient): Promise<EraPostingList['postings']> {
  const res = await client.get('/api/remittances/postings');
  expect(res.status).toBe(200);
  return (res.body as EraPostingList).postings;
}

const postingOf = async (client: HttpClient, id: string) => (await postingsOf(client)).find((p) => p.id === id);

describe('a big ERA posting in the background, as the remittance screen reads it', () => {
  let postedId: string;
  let failingId: string;
  const failing = largeClaimSet('clm_fail', CLAIMS, 7);

  it('lists a delivered ERA as queued, with its claims, for its own clinic only', async () => {
    const claims = largeClaimSet('clm_prog', CLAIMS);
    await seedClaims(web.db, north.clinicId, claims);
    postedId = await deliverEra(
      north.clinicId,
      build835(largeRemittance(claims, { traceNumber: 'PROG600' }), undefined, ''),
    );

    // Queued with claims whose status changed before the job ran: its first attempt cannot post them.
    await seedClaims(web.db, north.clinicId, failing);
    failingId = await deliverEra(
      north.clinicId,
      build835(largeRemittance(failing, { traceNumber: 'FAIL600' }), undefined, ''),
    );
    await web.db.claim.updateMany({ where: { id: { in: failing.map((c) => c.id) } }, data: { status: 'draft' } });

    expect(await postingOf(northStaff, postedId)).toMatchObject({
      state: 'queued',
      claimsTotal: CLAIMS,
      claimsPosted: 0,
      attempts: 0,
      willRetry: false,
      failureReason: null,
      remittanceIds: [],
      finishedAt: null,
    });
    expect((await postingsOf(northStaff)).map((p) => p.id)).toEqual([failingId, postedId]);
    expect(await postingsOf(southStaff)).toEqual([]);

    await screen.goto(`${web.url}/remittances`);
    const section = screen.getByRole('region', { name: 'Posting in the background' });
    const bars = section.getByRole('progressbar');
    await expectPage(bars).toHaveCount(2);
    for (const bar of await bars.all()) {
      await expectPage(bar).toHaveAttribute('aria-valuenow', '0');
      await expectPage(bar).toHaveAttribute('aria-valuemax', String(CLAIMS));
      await expectPage(bar).toHaveAttribute('aria-valuetext', `0 of ${CLAIMS} claims posted`);
    }
    await expectPage(screen.getByTestId(`background-posting-${postedId}`)).toContainText('Waiting to start');
    // The section passes the same WCAG 2.1 AA check as every screen (e2e/axe.spec.ts); there it has nothing to show.
    const axe = await new AxeBuilder({ page: screen })
      .include('[data-testid="background-postings"]')
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  }, 60_000);

  it('lists it posted once the job has run, every claim counted and its remittance named', async () => {
    worker = await startApp({ reuse: database, env: { APP_ROLE: 'worker' } });
    const posting = await until(
      () => postingOf(northStaff, postedId),
      (p) => p?.state === 'posted',
      120_000,
    );
    const remittances = (await northStaff.get('/api/remittances')).body.remittances as {
      id: string;
      traceNumber: string;
    }[];
    const remittanceId = remittances.find((r) => r.traceNumber === 'PROG600')?.id;
    expect(remittanceId).toBeDefined();
    expect(posting).toMatchObject({
      state: 'posted',
      claimsTotal: CLAIMS,
      claimsPosted: CLAIMS,
      attempts: 1,
      failureReason: null,
      remittanceIds: [remittanceId],
    });
    expect(posting?.finishedAt).not.toBeNull();
    expect(await postingsOf(southStaff)).toEqual([]);

    // The open screen, never reloaded, reads again by itself: the posted one leaves the section for the list.
    await expectPage(screen.getByTestId('remittance-row-PROG600')).toBeVisible({ timeout: 15_000 });
    await expectPage(screen.getByTestId(`background-posting-${postedId}`)).toHaveCount(0);
  }, 150_000);

  it('shows a failed attempt with its reason in words, then posts on the retry', async () => {
    const failed = await until(
      () => postingOf(northStaff, failingId),
      (p) => p?.state === 'failed',
      60_000,
      100,
    );
    expect(failed).toMatchObject({
      state: 'failed',
      attempts: 1,
      willRetry: true,
      claimsPosted: 0,
      failureReason:
        'The 835 names no claim of this clinic that was sent to the payer (CLP01 "clm_fail_0", "clm_fail_1", ' +
        '"clm_fail_2", "clm_fail_3", "clm_fail_4" and 595 more); nothing was posted',
      remittanceIds: [],
    });
    expect(await postingsOf(southStaff)).toEqual([]);
    // Read at once (the retry is seconds away), not at the screen's next poll.
    await screen.reload();
    const row = screen.getByTestId(`background-posting-${failingId}`);
    await expectPage(row).toContainText('Attempt 1 failed; it will be tried again shortly');
    await expectPage(row.getByTestId('background-posting-reason')).toHaveText(`Why: ${failed?.failureReason}`);

    await web.db.claim.updateMany({ where: { id: { in: failing.map((c) => c.id) } }, data: { status: 'submitted' } });
    const posted = await until(
      () => postingOf(northStaff, failingId),
      (p) => p?.state === 'posted',
      120_000,
    );
    expect(posted).toMatchObject({ state: 'posted', attempts: 2, claimsPosted: CLAIMS, failureReason: null });
    expect(posted?.remittanceIds).toHaveLength(1);
    // Nothing left unfinished: the section goes, the list has both.
    await expectPage(screen.getByTestId('remittance-row-FAIL600')).toBeVisible({ timeout: 15_000 });
    await expectPage(screen.getByTestId('background-postings')).toHaveCount(0);
  }, 200_000);
});
