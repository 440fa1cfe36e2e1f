// The sandbox's demo day (sandbox only: schedulesFor adds it there and nowhere else): every 5 minutes each demo
// clinic's morning is put on its calendar if missing, so a demo left running past a clinic's midnight still has a
// roster to check the next day, without a restart.
import type { Schedule } from '../schedules/schedules';
import { ensureDemoAppointments } from './demo-tenant';

export const demoDaySchedule: Schedule = {
  name: 'schedule.demo-day',
  cron: '*/5 * * * *',
  scope: 'platform',
  async run({ db }, { now }) {
    return { added: await ensureDemoAppointments(db, now) };
  },
};
