-- CreateTable
CREATE TABLE "CdsJwtUse" (
    "id" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CdsJwtUse_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CdsFeedback" (
    "id" TEXT NOT NULL,
    "clinicId" TEXT NOT NULL,
    "serviceId" TEXT NOT NULL,
    "issuer" TEXT NOT NULL,
    "card" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "overrideReason" JSONB,
    "outcomeAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CdsFeedback_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "CdsJwtUse_expiresAt_idx" ON "CdsJwtUse"("expiresAt");

-- CreateIndex
CREATE INDEX "CdsFeedback_clinicId_serviceId_createdAt_idx" ON "CdsFeedback"("clinicId", "serviceId", "createdAt");
