-- DropIndex
DROP INDEX "FhirResource_clinicId_resourceType_resourceId_key";

-- AlterTable
ALTER TABLE "EligibilityCheck" ADD COLUMN     "coverageOnFile" TEXT,
ADD COLUMN     "memberId" TEXT;

-- AlterTable
ALTER TABLE "FhirResource" ADD COLUMN     "source" TEXT NOT NULL DEFAULT '';

-- AlterTable
ALTER TABLE "Patient" ADD COLUMN     "coverageGroupNumber" TEXT;

-- AlterTable
ALTER TABLE "WebhookDelivery" ADD COLUMN     "envelopeId" TEXT;

-- CreateTable
CREATE TABLE "RevokedSession" (
    "tokenId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RevokedSession_pkey" PRIMARY KEY ("tokenId")
);

-- CreateTable
CREATE TABLE "WebhookObjectClock" (
    "clinicId" TEXT NOT NULL,
    "objectType" TEXT NOT NULL,
    "objectId" TEXT NOT NULL,
    "lastCreatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "WebhookObjectClock_pkey" PRIMARY KEY ("clinicId","objectType","objectId")
);

-- CreateIndex
CREATE INDEX "RevokedSession_expiresAt_idx" ON "RevokedSession"("expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "FhirResource_clinicId_source_resourceType_resourceId_key" ON "FhirResource"("clinicId", "source", "resourceType", "resourceId");

-- CreateIndex
CREATE UNIQUE INDEX "WebhookDelivery_receiver_envelopeId_key" ON "WebhookDelivery"("receiver", "envelopeId");
