// Whether a write lost to a unique constraint. Prisma reports it as P2002 whichever driver adapter is underneath,
// except from raw SQL: P2010 ("raw query failed") carrying the driver adapter's kind.
type PrismaError = { code?: unknown; meta?: { driverAdapterError?: { cause?: { kind?: unknown } } } };

export const isUniqueViolation = (error: unknown): boolean => {
  if (typeof error !== 'object' || error === null) return false;
  const { code, meta } = error as PrismaError;
  return (
    code === 'P2002' || (code === 'P2010' && meta?.driverAdapterError?.cause?.kind === 'UniqueConstraintViolation')
  );
};
