-- Background work moved to pg-boss (its own schema "pgboss", installed by pg-boss at start). An export still running
-- here has no job there any more: it is failed with a reason, and can be asked for again.
UPDATE "BulkExportJob" SET "status" = 'failed', "finishedAt" = CURRENT_TIMESTAMP,
  "error" = 'The export was interrupted by an upgrade of the job engine; start it again'
  WHERE "status" = 'running';

-- DropTable
DROP TABLE "Job";

-- Who asked for an eligibility check: staff (verify, roster) or the evening pre-verification schedule.
-- AlterTable
ALTER TABLE "EligibilityCheck" ADD COLUMN     "source" TEXT NOT NULL DEFAULT 'staff';
