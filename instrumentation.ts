// Next.js calls register() once when the server starts. Only the nodejs runtime does start-up work
// (NEXT_RUNTIME is Next's own marker, not configuration).
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { startUp } = await import('./lib/start-up');
  try {
    await startUp();
  } catch (error) {
    // A process that could not start must not serve: Next would keep it up answering 500 to everything, health
    // included. Exit non-zero so the supervisor (or the operator) sees it and restarts it.
    console.error('start-up failed:', error instanceof Error ? error.stack ?? error.message : error);
    process.exit(1);
  }
}
