-- DropIndex
DROP INDEX "ReconciliationVariance_clinicId_day_key";

-- AlterTable
ALTER TABLE "Claim" ADD COLUMN     "adjustmentCents" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "diagnoses" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "memberId" TEXT,
ADD COLUMN     "patientResponsibilityCents" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "payerId" TEXT,
ADD COLUMN     "payerName" TEXT,
ADD COLUMN     "placeOfService" TEXT NOT NULL DEFAULT '11',
ADD COLUMN     "renderingNpi" TEXT,
ADD COLUMN     "statusReason" TEXT;

-- AlterTable
ALTER TABLE "Clinic" ADD COLUMN     "billingAddress" JSONB,
ADD COLUMN     "billingTaxId" TEXT,
ADD COLUMN     "billingTaxonomy" TEXT,
ADD COLUMN     "timeZone" TEXT NOT NULL DEFAULT 'America/New_York';

-- AlterTable
ALTER TABLE "EmrConnection" ADD COLUMN     "lastError" TEXT,
ADD COLUMN     "launchPatientId" TEXT,
ADD COLUMN     "name" TEXT;

-- AlterTable
ALTER TABLE "FhirResource" ADD COLUMN     "patientRef" TEXT;

-- AlterTable
ALTER TABLE "Patient" ADD COLUMN     "coverageRelationship" TEXT NOT NULL DEFAULT '18',
ADD COLUMN     "coverageSubscriber" JSONB;

-- AlterTable
ALTER TABLE "PatientBill" ADD COLUMN     "claimId" TEXT;

-- AlterTable
ALTER TABLE "ReconciliationVariance" ADD COLUMN     "depositCents" BIGINT,
ADD COLUMN     "eraCents" BIGINT,
ADD COLUMN     "kind" TEXT NOT NULL DEFAULT 'ledger_mismatch',
ADD COLUMN     "reference" TEXT NOT NULL DEFAULT '',
ALTER COLUMN "ledgerCents" SET DEFAULT 0,
ALTER COLUMN "fboCents" SET DEFAULT 0,
ALTER COLUMN "railCents" SET DEFAULT 0;

-- AlterTable
ALTER TABLE "SyncRun" ADD COLUMN     "error" TEXT,
ADD COLUMN     "progress" JSONB;

-- AlterTable
ALTER TABLE "User" ADD COLUMN     "deactivatedAt" TIMESTAMP(3),
ADD COLUMN     "invitedBy" TEXT;

-- CreateTable
CREATE TABLE "UserInvitation" (
    "tokenHash" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "UserInvitation_pkey" PRIMARY KEY ("tokenHash")
);

-- CreateTable
CREATE TABLE "ClaimLine" (
    "id" TEXT NOT NULL,
    "claimId" TEXT NOT NULL,
    "clinicId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "procedureCode" TEXT NOT NULL,
    "modifiers" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "diagnosisPointers" INTEGER[],
    "units" INTEGER NOT NULL,
    "chargeCents" BIGINT NOT NULL,
    "serviceDate" TEXT,
    "paidCents" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "ClaimLine_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ClaimEvent" (
    "id" TEXT NOT NULL,
    "clinicId" TEXT NOT NULL,
    "claimId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "fromStatus" TEXT,
    "toStatus" TEXT,
    "detail" JSONB,
    "correlationId" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ClaimEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ClaimTransmission" (
    "id" TEXT NOT NULL,
    "clinicId" TEXT NOT NULL,
    "claimId" TEXT NOT NULL,
    "direction" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "controlNumber" TEXT NOT NULL,
    "x12" TEXT NOT NULL,
    "correlationId" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ClaimTransmission_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ClaimAppeal" (
    "id" TEXT NOT NULL,
    "clinicId" TEXT NOT NULL,
    "claimId" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "attachments" JSONB,
    "createdBy" TEXT NOT NULL,
    "correlationId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ClaimAppeal_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "X12ControlCounter" (
    "name" TEXT NOT NULL,
    "value" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "X12ControlCounter_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "Remittance" (
    "id" TEXT NOT NULL,
    "clinicId" TEXT NOT NULL,
    "payerId" TEXT NOT NULL,
    "payerName" TEXT NOT NULL,
    "payeeNpi" TEXT,
    "traceNumber" TEXT NOT NULL,
    "paymentMethod" TEXT NOT NULL,
    "paymentCents" BIGINT NOT NULL,
    "paymentDate" TEXT NOT NULL,
    "providerAdjustments" JSONB NOT NULL DEFAULT '[]',
    "source" TEXT NOT NULL,
    "x12" TEXT NOT NULL,
    "ledgerTransactionIds" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "correlationId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Remittance_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RemittanceClaim" (
    "id" TEXT NOT NULL,
    "remittanceId" TEXT NOT NULL,
    "clinicId" TEXT NOT NULL,
    "claimId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "payerClaimId" TEXT,
    "statusCode" TEXT NOT NULL,
    "chargeCents" BIGINT NOT NULL,
    "paidCents" BIGINT NOT NULL,
    "patientResponsibilityCents" BIGINT NOT NULL,
    "adjustments" JSONB NOT NULL,
    "lines" JSONB NOT NULL,

    CONSTRAINT "RemittanceClaim_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FhirStagedResource" (
    "seq" BIGSERIAL NOT NULL,
    "syncRunId" TEXT NOT NULL,
    "resourceType" TEXT NOT NULL,
    "resourceId" TEXT NOT NULL,
    "lastUpdated" TIMESTAMP(3) NOT NULL,
    "contentHash" TEXT NOT NULL,
    "resource" JSONB NOT NULL,
    "patientRef" TEXT,

    CONSTRAINT "FhirStagedResource_pkey" PRIMARY KEY ("seq")
);

-- CreateIndex
CREATE INDEX "UserInvitation_userId_idx" ON "UserInvitation"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "ClaimLine_claimId_position_key" ON "ClaimLine"("claimId", "position");

-- CreateIndex
CREATE INDEX "ClaimEvent_claimId_at_idx" ON "ClaimEvent"("claimId", "at");

-- CreateIndex
CREATE INDEX "ClaimTransmission_claimId_at_idx" ON "ClaimTransmission"("claimId", "at");

-- CreateIndex
CREATE INDEX "ClaimAppeal_claimId_createdAt_idx" ON "ClaimAppeal"("claimId", "createdAt");

-- CreateIndex
CREATE INDEX "Remittance_clinicId_createdAt_idx" ON "Remittance"("clinicId", "createdAt");

-- CreateIndex
CREATE INDEX "Remittance_clinicId_traceNumber_idx" ON "Remittance"("clinicId", "traceNumber");

-- CreateIndex
CREATE UNIQUE INDEX "Remittance_clinicId_payerId_traceNumber_key" ON "Remittance"("clinicId", "payerId", "traceNumber");

-- CreateIndex
CREATE INDEX "RemittanceClaim_claimId_idx" ON "RemittanceClaim"("claimId");

-- CreateIndex
CREATE INDEX "RemittanceClaim_clinicId_statusCode_idx" ON "RemittanceClaim"("clinicId", "statusCode");

-- CreateIndex
CREATE UNIQUE INDEX "RemittanceClaim_remittanceId_position_key" ON "RemittanceClaim"("remittanceId", "position");

-- CreateIndex
CREATE INDEX "FhirStagedResource_syncRunId_resourceType_resourceId_idx" ON "FhirStagedResource"("syncRunId", "resourceType", "resourceId");

-- CreateIndex
CREATE INDEX "AuditLog_clinicId_createdAt_idx" ON "AuditLog"("clinicId", "createdAt");

-- CreateIndex
CREATE INDEX "Claim_clinicId_status_createdAt_idx" ON "Claim"("clinicId", "status", "createdAt");

-- CreateIndex
CREATE INDEX "FhirResource_clinicId_resourceType_patientRef_idx" ON "FhirResource"("clinicId", "resourceType", "patientRef");

-- CreateIndex
CREATE INDEX "ReconciliationVariance_clinicId_createdAt_idx" ON "ReconciliationVariance"("clinicId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "ReconciliationVariance_clinicId_day_kind_reference_key" ON "ReconciliationVariance"("clinicId", "day", "kind", "reference");

-- AddForeignKey
ALTER TABLE "ClaimLine" ADD CONSTRAINT "ClaimLine_claimId_fkey" FOREIGN KEY ("claimId") REFERENCES "Claim"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RemittanceClaim" ADD CONSTRAINT "RemittanceClaim_remittanceId_fkey" FOREIGN KEY ("remittanceId") REFERENCES "Remittance"("id") ON DELETE CASCADE ON UPDATE CASCADE;
