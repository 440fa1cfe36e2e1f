-- CreateTable
CREATE TABLE "ClaimSend" (
    "id" TEXT NOT NULL,
    "clinicId" TEXT NOT NULL,
    "claimId" TEXT NOT NULL,
    "transmissionId" TEXT NOT NULL,
    "submissionId" TEXT NOT NULL,
    "interchangeControlNumber" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "receiptConfirmed" BOOLEAN NOT NULL DEFAULT false,
    "stateReason" TEXT,
    "userId" TEXT NOT NULL,
    "orgId" TEXT NOT NULL,
    "correlationId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "ClaimSend_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ClaimSend_transmissionId_key" ON "ClaimSend"("transmissionId");

-- CreateIndex
CREATE UNIQUE INDEX "ClaimSend_submissionId_key" ON "ClaimSend"("submissionId");

-- CreateIndex
CREATE INDEX "ClaimSend_state_createdAt_idx" ON "ClaimSend"("state", "createdAt");

-- CreateIndex
CREATE INDEX "ClaimSend_claimId_idx" ON "ClaimSend"("claimId");
