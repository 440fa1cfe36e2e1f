// Prisma reports a unique-constraint violation as P2002, whichever driver adapter is underneath.
export const isUniqueViolation = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'P2002';
