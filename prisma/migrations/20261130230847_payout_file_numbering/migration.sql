-- AlterTable
-- A file's creation date and File ID Modifier, for numbering the day's files A-Z then 0-9. Files already stored
-- get their creation date from their own header (positions 24-29, YYMMDD); their modifier stays NULL: they all
-- carried "A", and NULLs never conflict in the unique index, while the day's count still includes them.
ALTER TABLE "PayoutBatch" ADD COLUMN     "fileCreationDate" TEXT,
ADD COLUMN     "fileIdModifier" TEXT;

UPDATE "PayoutBatch" SET "fileCreationDate" =
  '20' || substr("fileText", 24, 2) || '-' || substr("fileText", 26, 2) || '-' || substr("fileText", 28, 2);

ALTER TABLE "PayoutBatch" ALTER COLUMN "fileCreationDate" SET NOT NULL;

-- CreateIndex
CREATE UNIQUE INDEX "PayoutBatch_fileCreationDate_fileIdModifier_key" ON "PayoutBatch"("fileCreationDate", "fileIdModifier");
