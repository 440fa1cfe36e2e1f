-- CreateTable
CREATE TABLE "PayoutAccount" (
    "clinicId" TEXT NOT NULL,
    "routingSealed" TEXT NOT NULL,
    "accountSealed" TEXT NOT NULL,
    "accountLast4" TEXT NOT NULL,
    "accountType" TEXT NOT NULL,
    "holderName" TEXT NOT NULL,
    "prenoteBatchId" TEXT,
    "verifiedAt" TIMESTAMP(3),
    "updatedBy" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PayoutAccount_pkey" PRIMARY KEY ("clinicId")
);

-- CreateTable
CREATE TABLE "PayoutBatch" (
    "id" TEXT NOT NULL,
    "clinicId" TEXT NOT NULL,
    "sequence" SERIAL NOT NULL,
    "status" TEXT NOT NULL,
    "traceNumber" TEXT NOT NULL,
    "effectiveDate" TEXT NOT NULL,
    "entryCount" INTEGER NOT NULL,
    "totalCents" BIGINT NOT NULL,
    "fileText" TEXT NOT NULL,
    "createdBy" TEXT NOT NULL,
    "releasedBy" TEXT,
    "releasedAt" TIMESTAMP(3),
    "confirmedAt" TIMESTAMP(3),
    "confirmedCents" BIGINT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PayoutBatch_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PayoutEntry" (
    "id" TEXT NOT NULL,
    "batchId" TEXT NOT NULL,
    "clinicId" TEXT NOT NULL,
    "instructionId" TEXT,
    "traceNumber" TEXT NOT NULL,
    "amountCents" BIGINT NOT NULL,
    "prenote" BOOLEAN NOT NULL,
    "returnCode" TEXT,
    "returnedAt" TIMESTAMP(3),

    CONSTRAINT "PayoutEntry_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "PayoutBatch_sequence_key" ON "PayoutBatch"("sequence");

-- CreateIndex
CREATE UNIQUE INDEX "PayoutBatch_traceNumber_key" ON "PayoutBatch"("traceNumber");

-- CreateIndex
CREATE INDEX "PayoutBatch_clinicId_createdAt_idx" ON "PayoutBatch"("clinicId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "PayoutEntry_instructionId_key" ON "PayoutEntry"("instructionId");

-- CreateIndex
CREATE UNIQUE INDEX "PayoutEntry_traceNumber_key" ON "PayoutEntry"("traceNumber");

-- CreateIndex
CREATE INDEX "PayoutEntry_batchId_idx" ON "PayoutEntry"("batchId");

-- AddForeignKey
ALTER TABLE "PayoutEntry" ADD CONSTRAINT "PayoutEntry_batchId_fkey" FOREIGN KEY ("batchId") REFERENCES "PayoutBatch"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
