-- AlterTable
ALTER TABLE "RemittanceClaim" ADD COLUMN     "posting" TEXT NOT NULL DEFAULT 'posted',
ADD COLUMN     "unmatchedReason" TEXT;
