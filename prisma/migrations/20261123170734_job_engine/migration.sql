-- DropIndex
DROP INDEX "BulkExportJob_status_leaseUntil_idx";

-- AlterTable
ALTER TABLE "BulkExportJob" DROP COLUMN "attempts",
DROP COLUMN "leaseUntil";

-- CreateTable
CREATE TABLE "Job" (
    "id" TEXT NOT NULL,
    "queue" TEXT NOT NULL,
    "key" TEXT,
    "payload" JSONB NOT NULL DEFAULT '{}',
    "state" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "maxAttempts" INTEGER NOT NULL,
    "runAfter" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "leaseToken" TEXT,
    "leaseUntil" TIMESTAMP(3),
    "lockedBy" TEXT,
    "lastError" TEXT,
    "result" JSONB,
    "correlationId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "Job_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Job_queue_state_runAfter_idx" ON "Job"("queue", "state", "runAfter");

-- CreateIndex
CREATE UNIQUE INDEX "Job_queue_key_key" ON "Job"("queue", "key");

-- CreateIndex
CREATE INDEX "BulkExportJob_clinicId_status_idx" ON "BulkExportJob"("clinicId", "status");

-- CreateIndex
CREATE INDEX "FhirResource_clinicId_resourceType_resourceId_idx" ON "FhirResource"("clinicId", "resourceType", "resourceId");

-- Exports that were unfinished when this migration ran keep going: each gets its job (a fresh attempt count).
INSERT INTO "Job" ("id", "queue", "key", "payload", "state", "maxAttempts", "correlationId", "updatedAt")
SELECT 'job_' || md5("id"), 'bulk-export', "id", jsonb_build_object('exportId', "id"), 'queued', 3, "correlationId", CURRENT_TIMESTAMP
FROM "BulkExportJob" WHERE "status" = 'running';
