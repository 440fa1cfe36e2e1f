// The background work screen in Chromium: an admin sees every schedule of the demo clinic in words, with its cron and
// time zone, when it last ran and how that run ended ("Not yet" before a first run: the app has just started), and
// when it runs next. How a failed run reads comes from GET /api/jobs (lib/background/list-jobs.test.ts).
import { test, expect } from 'playwright/test';
import { signIn } from './billing-setup';

test('an admin sees each schedule of the clinic with its last and next run', async ({ page }) => {
  await signIn(page, 'admin@northside.test');
  await page.goto('/settings/background');

  const schedule = (name: string) => page.getByTestId(`schedule-${name}`);
  await expect(schedule('schedule.pre-verification')).toContainText(
    "Pre-verify tomorrow's appointments (0 18 * * *, America/New_York)",
  );
  await expect(schedule('schedule.reconciliation')).toContainText(
    "Reconcile yesterday's money (0 2 * * *, America/New_York)",
  );
  await expect(schedule('schedule.demo-day')).toContainText("The demo clinic's day (sandbox) (*/5 * * * *, UTC)");
  for (const name of ['schedule.pre-verification', 'schedule.reconciliation']) {
    const cells = schedule(name).getByRole('cell');
    // Last run: none yet, or a date with how it ended; next run: a date in the clinic's zone.
    await expect(cells.nth(0)).toHaveText(
      /^(Not yet|\w{3} \d{1,2}, \d{4}, .+ · (Done|Running|Queued|Waiting to retry|Failed \(dead letter\)|Cancelled).*)$/,
    );
    await expect(cells.nth(1)).toHaveText(/^\w{3} \d{1,2}, \d{4}, \d{1,2}:00 [AP]M E[SD]T$/);
  }
});
