-- CreateTable
CREATE TABLE "Organization" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Organization_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Clinic" (
    "id" TEXT NOT NULL,
    "orgId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "billingNpi" TEXT,
    "billingProviderName" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Clinic_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "User" (
    "id" TEXT NOT NULL,
    "orgId" TEXT NOT NULL,
    "clinicId" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "passwordHash" TEXT NOT NULL,
    "scopes" TEXT[],
    "sessionVersion" INTEGER NOT NULL DEFAULT 0,
    "failedSignIns" INTEGER NOT NULL DEFAULT 0,
    "lockedUntil" TIMESTAMP(3),
    "mfaEnabled" BOOLEAN NOT NULL DEFAULT false,
    "mfaSecretSealed" TEXT,
    "mfaLastTimeStep" BIGINT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BackupCode" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "codeHash" TEXT NOT NULL,
    "usedAt" TIMESTAMP(3),

    CONSTRAINT "BackupCode_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebAuthnCredential" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "publicKey" BYTEA NOT NULL,
    "counter" BIGINT NOT NULL DEFAULT 0,
    "transports" TEXT[],
    "deviceType" TEXT NOT NULL,
    "backedUp" BOOLEAN NOT NULL,
    "name" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMP(3),

    CONSTRAINT "WebAuthnCredential_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RateLimitCounter" (
    "key" TEXT NOT NULL,
    "windowStart" TIMESTAMP(3) NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "RateLimitCounter_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "AuditLog" (
    "id" TEXT NOT NULL,
    "orgId" TEXT,
    "clinicId" TEXT,
    "userId" TEXT,
    "action" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "correlationId" TEXT NOT NULL,
    "detail" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AuditLog_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PhiAccessLog" (
    "id" TEXT NOT NULL,
    "orgId" TEXT NOT NULL,
    "clinicId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "patientId" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "correlationId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PhiAccessLog_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "IdempotencyKey" (
    "id" TEXT NOT NULL,
    "clinicId" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "resourceId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "IdempotencyKey_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Patient" (
    "id" TEXT NOT NULL,
    "clinicId" TEXT NOT NULL,
    "firstName" TEXT NOT NULL,
    "lastName" TEXT NOT NULL,
    "birthDate" TEXT NOT NULL,
    "gender" TEXT,
    "address" JSONB,
    "phone" TEXT,
    "coverageMemberId" TEXT,
    "coveragePayerId" TEXT,
    "coveragePayerName" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Patient_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Appointment" (
    "id" TEXT NOT NULL,
    "clinicId" TEXT NOT NULL,
    "patientId" TEXT NOT NULL,
    "start" TIMESTAMP(3) NOT NULL,
    "providerNpi" TEXT,
    "providerName" TEXT,
    "reason" TEXT,

    CONSTRAINT "Appointment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "EligibilityCheck" (
    "id" TEXT NOT NULL,
    "clinicId" TEXT NOT NULL,
    "patientId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "cacheKey" TEXT NOT NULL,
    "payerId" TEXT NOT NULL,
    "serviceType" TEXT NOT NULL,
    "dateOfService" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "eligible" BOOLEAN NOT NULL,
    "mode" TEXT NOT NULL,
    "cacheable" BOOLEAN NOT NULL,
    "result" JSONB NOT NULL,
    "correlationId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "EligibilityCheck_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "id" TEXT NOT NULL,
    "receiver" TEXT NOT NULL,
    "deliveryId" TEXT NOT NULL,
    "eventType" TEXT NOT NULL,
    "clinicId" TEXT,
    "outcome" TEXT NOT NULL,
    "correlationId" TEXT NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebhookDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PatientBill" (
    "id" TEXT NOT NULL,
    "clinicId" TEXT NOT NULL,
    "patientId" TEXT NOT NULL,
    "amountCents" INTEGER NOT NULL,
    "paidCents" INTEGER NOT NULL DEFAULT 0,
    "status" TEXT NOT NULL DEFAULT 'open',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PatientBill_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Claim" (
    "id" TEXT NOT NULL,
    "clinicId" TEXT NOT NULL,
    "patientId" TEXT NOT NULL,
    "totalChargeCents" BIGINT NOT NULL,
    "serviceDate" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "paidCents" BIGINT NOT NULL DEFAULT 0,
    "idempotencyKey" TEXT,
    "correlationId" TEXT NOT NULL,
    "submittedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Claim_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Payment" (
    "id" TEXT NOT NULL,
    "clinicId" TEXT NOT NULL,
    "billId" TEXT,
    "claimId" TEXT,
    "amountCents" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Payment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LedgerTransaction" (
    "id" TEXT NOT NULL,
    "clinicId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "reference" TEXT NOT NULL,
    "correlationId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LedgerTransaction_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LedgerEntry" (
    "id" TEXT NOT NULL,
    "transactionId" TEXT NOT NULL,
    "account" TEXT NOT NULL,
    "amountCents" BIGINT NOT NULL,

    CONSTRAINT "LedgerEntry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Fax" (
    "id" TEXT NOT NULL,
    "clinicId" TEXT NOT NULL,
    "sender" TEXT NOT NULL,
    "pages" INTEGER NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL,
    "documentUrl" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Fax_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Transfer" (
    "id" TEXT NOT NULL,
    "clinicId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "amountCents" BIGINT NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Transfer_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RailPosting" (
    "id" TEXT NOT NULL,
    "clinicId" TEXT NOT NULL,
    "amountCents" BIGINT NOT NULL,
    "direction" TEXT NOT NULL,
    "postedAt" TIMESTAMP(3) NOT NULL,
    "railReference" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RailPosting_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SettlementPool" (
    "id" TEXT NOT NULL,
    "clinicId" TEXT NOT NULL,
    "availableCents" BIGINT NOT NULL,
    "status" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SettlementPool_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SettlementInstruction" (
    "id" TEXT NOT NULL,
    "clinicId" TEXT NOT NULL,
    "poolId" TEXT NOT NULL,
    "encounterId" TEXT,
    "status" TEXT NOT NULL,
    "advanceAmountCents" BIGINT NOT NULL,
    "feeBps" INTEGER NOT NULL,
    "reserveBps" INTEGER NOT NULL,
    "poolCents" BIGINT NOT NULL,
    "feeCents" BIGINT NOT NULL,
    "reserveCents" BIGINT NOT NULL,
    "residualCents" BIGINT NOT NULL,
    "paidAmountCents" BIGINT NOT NULL DEFAULT 0,
    "railReference" TEXT,
    "createdBy" TEXT NOT NULL,
    "signedBy" TEXT,
    "signedAt" TIMESTAMP(3),
    "disbursedAt" TIMESTAMP(3),
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "correlationId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SettlementInstruction_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SettlementGate" (
    "id" TEXT NOT NULL,
    "clinicId" TEXT NOT NULL,
    "encounterId" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "createdBy" TEXT NOT NULL,
    "correlationId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SettlementGate_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ReconciliationVariance" (
    "id" TEXT NOT NULL,
    "clinicId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "ledgerCents" BIGINT NOT NULL,
    "fboCents" BIGINT NOT NULL,
    "railCents" BIGINT NOT NULL,
    "correlationId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ReconciliationVariance_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "EmrConnection" (
    "id" TEXT NOT NULL,
    "clinicId" TEXT NOT NULL,
    "vendor" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "clientId" TEXT,
    "fhirBaseUrl" TEXT,
    "accessTokenSealed" TEXT,
    "refreshTokenSealed" TEXT,
    "tokenExpiresAt" TIMESTAMP(3),
    "grantedScope" TEXT,
    "connectedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "EmrConnection_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OAuthState" (
    "stateHash" TEXT NOT NULL,
    "clinicId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "connectionId" TEXT NOT NULL,
    "codeVerifierSealed" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "consumedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OAuthState_pkey" PRIMARY KEY ("stateHash")
);

-- CreateTable
CREATE TABLE "FhirResource" (
    "id" TEXT NOT NULL,
    "clinicId" TEXT NOT NULL,
    "resourceType" TEXT NOT NULL,
    "resourceId" TEXT NOT NULL,
    "versionId" INTEGER NOT NULL DEFAULT 1,
    "lastUpdated" TIMESTAMP(3) NOT NULL,
    "contentHash" TEXT NOT NULL,
    "resource" JSONB NOT NULL,

    CONSTRAINT "FhirResource_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SyncRun" (
    "id" TEXT NOT NULL,
    "clinicId" TEXT NOT NULL,
    "connectionId" TEXT,
    "kind" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "cursor" TEXT,
    "counts" JSONB,
    "correlationId" TEXT NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "SyncRun_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BulkExportJob" (
    "id" TEXT NOT NULL,
    "clinicId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "level" TEXT NOT NULL,
    "types" TEXT[],
    "since" TIMESTAMP(3),
    "status" TEXT NOT NULL,
    "request" TEXT NOT NULL,
    "transactionTime" TIMESTAMP(3) NOT NULL,
    "leaseUntil" TIMESTAMP(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "correlationId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "BulkExportJob_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BulkExportFile" (
    "id" TEXT NOT NULL,
    "jobId" TEXT NOT NULL,
    "resourceType" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "ndjson" TEXT NOT NULL,

    CONSTRAINT "BulkExportFile_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Clinic_orgId_name_key" ON "Clinic"("orgId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");

-- CreateIndex
CREATE INDEX "BackupCode_userId_idx" ON "BackupCode"("userId");

-- CreateIndex
CREATE INDEX "WebAuthnCredential_userId_idx" ON "WebAuthnCredential"("userId");

-- CreateIndex
CREATE INDEX "AuditLog_userId_createdAt_idx" ON "AuditLog"("userId", "createdAt");

-- CreateIndex
CREATE INDEX "AuditLog_action_createdAt_idx" ON "AuditLog"("action", "createdAt");

-- CreateIndex
CREATE INDEX "PhiAccessLog_clinicId_patientId_idx" ON "PhiAccessLog"("clinicId", "patientId");

-- CreateIndex
CREATE UNIQUE INDEX "IdempotencyKey_clinicId_purpose_key_key" ON "IdempotencyKey"("clinicId", "purpose", "key");

-- CreateIndex
CREATE INDEX "Patient_clinicId_idx" ON "Patient"("clinicId");

-- CreateIndex
CREATE INDEX "Appointment_clinicId_start_idx" ON "Appointment"("clinicId", "start");

-- CreateIndex
CREATE INDEX "EligibilityCheck_cacheKey_createdAt_idx" ON "EligibilityCheck"("cacheKey", "createdAt");

-- CreateIndex
CREATE INDEX "EligibilityCheck_clinicId_patientId_createdAt_idx" ON "EligibilityCheck"("clinicId", "patientId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "WebhookDelivery_receiver_deliveryId_key" ON "WebhookDelivery"("receiver", "deliveryId");

-- CreateIndex
CREATE INDEX "PatientBill_clinicId_idx" ON "PatientBill"("clinicId");

-- CreateIndex
CREATE INDEX "Claim_clinicId_createdAt_idx" ON "Claim"("clinicId", "createdAt");

-- CreateIndex
CREATE INDEX "Claim_clinicId_patientId_idx" ON "Claim"("clinicId", "patientId");

-- CreateIndex
CREATE UNIQUE INDEX "Claim_clinicId_idempotencyKey_key" ON "Claim"("clinicId", "idempotencyKey");

-- CreateIndex
CREATE INDEX "Payment_clinicId_idx" ON "Payment"("clinicId");

-- CreateIndex
CREATE INDEX "LedgerTransaction_clinicId_createdAt_idx" ON "LedgerTransaction"("clinicId", "createdAt");

-- CreateIndex
CREATE INDEX "LedgerEntry_transactionId_idx" ON "LedgerEntry"("transactionId");

-- CreateIndex
CREATE INDEX "LedgerEntry_account_idx" ON "LedgerEntry"("account");

-- CreateIndex
CREATE INDEX "RailPosting_clinicId_postedAt_idx" ON "RailPosting"("clinicId", "postedAt");

-- CreateIndex
CREATE INDEX "SettlementInstruction_clinicId_createdAt_idx" ON "SettlementInstruction"("clinicId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "SettlementGate_clinicId_encounterId_key" ON "SettlementGate"("clinicId", "encounterId");

-- CreateIndex
CREATE UNIQUE INDEX "ReconciliationVariance_clinicId_day_key" ON "ReconciliationVariance"("clinicId", "day");

-- CreateIndex
CREATE INDEX "EmrConnection_clinicId_idx" ON "EmrConnection"("clinicId");

-- CreateIndex
CREATE INDEX "FhirResource_clinicId_resourceType_lastUpdated_idx" ON "FhirResource"("clinicId", "resourceType", "lastUpdated");

-- CreateIndex
CREATE UNIQUE INDEX "FhirResource_clinicId_resourceType_resourceId_key" ON "FhirResource"("clinicId", "resourceType", "resourceId");

-- CreateIndex
CREATE INDEX "SyncRun_clinicId_kind_startedAt_idx" ON "SyncRun"("clinicId", "kind", "startedAt");

-- CreateIndex
CREATE INDEX "BulkExportJob_status_leaseUntil_idx" ON "BulkExportJob"("status", "leaseUntil");

-- CreateIndex
CREATE INDEX "BulkExportFile_jobId_idx" ON "BulkExportFile"("jobId");

-- AddForeignKey
ALTER TABLE "Clinic" ADD CONSTRAINT "Clinic_orgId_fkey" FOREIGN KEY ("orgId") REFERENCES "Organization"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "User" ADD CONSTRAINT "User_orgId_fkey" FOREIGN KEY ("orgId") REFERENCES "Organization"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "User" ADD CONSTRAINT "User_clinicId_fkey" FOREIGN KEY ("clinicId") REFERENCES "Clinic"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BackupCode" ADD CONSTRAINT "BackupCode_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebAuthnCredential" ADD CONSTRAINT "WebAuthnCredential_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Patient" ADD CONSTRAINT "Patient_clinicId_fkey" FOREIGN KEY ("clinicId") REFERENCES "Clinic"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Appointment" ADD CONSTRAINT "Appointment_patientId_fkey" FOREIGN KEY ("patientId") REFERENCES "Patient"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LedgerEntry" ADD CONSTRAINT "LedgerEntry_transactionId_fkey" FOREIGN KEY ("transactionId") REFERENCES "LedgerTransaction"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BulkExportFile" ADD CONSTRAINT "BulkExportFile_jobId_fkey" FOREIGN KEY ("jobId") REFERENCES "BulkExportJob"("id") ON DELETE CASCADE ON UPDATE CASCADE;
