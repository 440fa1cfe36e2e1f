// Whether an error means the database cannot be reached (refused, dropped, restarting, shutting down), whichever
// driver reported it, so the edge answers 503 DEPENDENCY_UNAVAILABLE (try again) rather than 500.
const DATABASE_DOWN =
  /ECONNREFUSED|ECONNRESET|Connection terminated|terminating connection|Can't reach database|DatabaseNotReachable|57P01|57P03|the database system is (starting up|shutting down)/i;

export function isDatabaseDown(error: unknown): boolean {
  return DATABASE_DOWN.test(describe(error));
}

// Name, message and code of the error and of its causes (a plain detail object as JSON): the driver's words may
// sit at any level of the cause chain.
function describe(error: unknown, depth = 0): string {
  if (error === undefined || error === null || depth > 4) return '';
  if (error instanceof Error) {
    const { code, cause } = error as { code?: unknown; cause?: unknown };
    return [error.name, error.message, typeof code === 'string' ? code : '', describe(cause, depth + 1)].join(' ');
  }
  if (typeof error === 'object') {
    try {
      return JSON.stringify(error);
    } catch {
      return String(error);
    }
  }
  return String(error);
}
