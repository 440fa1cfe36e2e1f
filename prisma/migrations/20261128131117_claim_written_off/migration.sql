-- AlterTable
ALTER TABLE "Claim" ADD COLUMN     "writtenOffCents" BIGINT NOT NULL DEFAULT 0;
