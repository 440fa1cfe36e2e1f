-- CreateTable
CREATE TABLE "ClaimStatusFollowUp" (
    "claimId" TEXT NOT NULL,
    "clinicId" TEXT NOT NULL,
    "askedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ClaimStatusFollowUp_pkey" PRIMARY KEY ("claimId")
);

-- CreateIndex
CREATE INDEX "ClaimStatusFollowUp_clinicId_askedAt_idx" ON "ClaimStatusFollowUp"("clinicId", "askedAt");
