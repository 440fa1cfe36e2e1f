-- A pull's staged rows live only until its commit (deleted in the commit's transaction, or discarded after a
-- failure): writing them to the WAL as well only doubled the pull's I/O. After a crash PostgreSQL empties an
-- unlogged table, which is what a pull that did not commit leaves behind anyway. (Not in schema.prisma: Prisma
-- does not model a table's persistence, and its diff ignores it.)
ALTER TABLE "FhirStagedResource" SET UNLOGGED;
