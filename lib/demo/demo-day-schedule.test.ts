// The demo tenant's rolling day on a real PostgreSQL: a demo started on one day has the next day's morning on each
// clinic's calendar shortly before that clinic's own midnight, added once however often the schedule fires; the
// schedule exists in sandbox only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '@/lib/db';
import { createTestDatabase, type TestDatabase } from '@/test/support/postgres';
import { SCHEDULES, schedulesFor } from '../schedules/schedules';
import { demoDaySchedule } from './demo-day-schedule';
import { ensureDemoTenant } from './demo-tenant';

let database: TestDatabase;
let db: Db;

beforeAll(async () => {
  database = await createTestDatabase();
  db = await openDb({ kind: 'postgres', url: database.url });
  // Started at noon UTC on 28 November: 07:00 in New York, 04:00 in Los Angeles.
  await ensureDemoTenant({ db, now: new Date('2026-11-28T12:00:00Z') }, 'sandbox');
}, 60_000);

afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});

const days = async (clinicId: string) =>
  (await db.appointment.findMany({ where: { clinicId }, select: { id: true } }))
    .map((a) => a.id.slice(-8))
    .reduce<Record<string, number>>((count, day) => ({ ...count, [day]: (count[day] ?? 0) + 1 }), {});

const run = (iso: string) =>
  demoDaySchedule.run(
    { db, clock: () => new Date(iso), boss: undefined as never },
    { timeZone: 'UTC', now: new Date(iso), correlationId: 'corr-demo-day' },
  );

describe('the demo day', () => {
  it("puts each clinic's next morning on its calendar before its own midnight, once", async () => {
    expect(await days('clinic_north')).toEqual({ '20261128': 10 });
    expect(await days('clinic_south')).toEqual({ '20261128': 10 });
    // 23:40 in New York: nothing new yet (its midnight is more than 15 minutes away).
    expect(await run('2026-11-29T04:40:00Z')).toEqual({ added: 0 });
    // 23:50 in New York: the 29th's morning is there before the day begins; Los Angeles (20:50) gets nothing.
    expect(await run('2026-11-29T04:50:00Z')).toEqual({ added: 10 });
    expect(await run('2026-11-29T04:55:00Z')).toEqual({ added: 0 });
    expect(await days('clinic_north')).toEqual({ '20261128': 10, '20261129': 10 });
    expect(await days('clinic_south')).toEqual({ '20261128': 10 });
    // 23:50 in Los Angeles.
    expect(await run('2026-11-29T07:50:00Z')).toEqual({ added: 10 });
    expect(await days('clinic_south')).toEqual({ '20261128': 10, '20261129': 10 });
    // A demo left running over two days without a restart: 09:00 in Los Angeles on 1 December.
    expect(await run('2026-12-01T17:00:00Z')).toEqual({ added: 20 });
    const first = await db.appointment.findUniqueOrThrow({ where: { id: 'appt_s_001_20261201' } });
    expect(first).toMatchObject({ clinicId: 'clinic_south', patientId: 'pat_s_001' });
    // 08:30 on the clinic's wall clock (PST, UTC-8).
    expect(first.start.toISOString()).toBe('2026-12-01T16:30:00.000Z');
  });

  it('is kept in sandbox only', () => {
    expect(schedulesFor('production')).toEqual(SCHEDULES);
    expect(schedulesFor('sandbox')).toEqual([...SCHEDULES, demoDaySchedule]);
    expect(demoDaySchedule).toMatchObject({ name: 'schedule.demo-day', cron: '*/5 * * * *', scope: 'platform' });
  });
});
