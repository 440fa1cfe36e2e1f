-- AlterTable
ALTER TABLE "Claim" ADD COLUMN     "writtenOffCents" BIGINT NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "Clinic" ADD COLUMN     "phone" TEXT;
