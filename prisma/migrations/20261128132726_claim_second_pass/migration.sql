-- AlterTable
ALTER TABLE "Claim" ADD COLUMN     "frequency" TEXT NOT NULL DEFAULT '1',
ADD COLUMN     "payerClaimId" TEXT,
ADD COLUMN     "payerRank" TEXT NOT NULL DEFAULT 'primary',
ADD COLUMN     "primaryClaimId" TEXT,
ADD COLUMN     "replacesClaimId" TEXT;

-- AlterTable
ALTER TABLE "Patient" ADD COLUMN     "secondaryGroupNumber" TEXT,
ADD COLUMN     "secondaryMemberId" TEXT,
ADD COLUMN     "secondaryPayerId" TEXT,
ADD COLUMN     "secondaryPayerName" TEXT,
ADD COLUMN     "secondaryRelationship" TEXT NOT NULL DEFAULT '18',
ADD COLUMN     "secondarySubscriber" JSONB;

-- CreateIndex
CREATE INDEX "Claim_clinicId_replacesClaimId_idx" ON "Claim"("clinicId", "replacesClaimId");

-- CreateIndex
CREATE INDEX "Claim_clinicId_primaryClaimId_idx" ON "Claim"("clinicId", "primaryClaimId");
