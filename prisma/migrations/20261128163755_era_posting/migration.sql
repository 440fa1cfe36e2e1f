-- CreateTable
CREATE TABLE "EraPosting" (
    "id" TEXT NOT NULL,
    "clinicId" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'queued',
    "claimsTotal" INTEGER NOT NULL,
    "claimsPosted" INTEGER NOT NULL DEFAULT 0,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "willRetry" BOOLEAN NOT NULL DEFAULT false,
    "failureReason" TEXT,
    "remittanceIds" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "correlationId" TEXT NOT NULL,
    "queuedAt" TIMESTAMP(3) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "EraPosting_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "EraPosting_clinicId_queuedAt_idx" ON "EraPosting"("clinicId", "queuedAt");
