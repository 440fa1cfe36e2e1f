-- DropIndex
DROP INDEX "FhirStagedResource_syncRunId_resourceType_resourceId_idx";
