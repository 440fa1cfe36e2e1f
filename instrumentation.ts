// Next.js calls register() once when the server starts. Only the nodejs runtime does start-up work
// (NEXT_RUNTIME is Next's own marker, not configuration).
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { startUpOrExit } = await import('./lib/start-up');
  await startUpOrExit();
}
