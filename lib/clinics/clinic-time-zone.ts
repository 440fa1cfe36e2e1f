// The clinic's IANA time zone, for the domain code that counts days (appointments, default date of service).
import type { Db } from '../db';

/** The clinic's time zone; the schema's default zone when the row is missing (the caller's scope check decides). */
export async function readClinicTimeZone(db: Db, clinicId: string): Promise<string> {
  const clinic = await db.clinic.findUnique({ where: { id: clinicId }, select: { timeZone: true } });
  return clinic?.timeZone ?? 'America/New_York';
}
