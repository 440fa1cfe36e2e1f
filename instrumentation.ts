// Next.js calls register() once when the server starts. Only the nodejs runtime does start-up work
// (NEXT_RUNTIME is Next's own marker, not configuration). The server hooks go first: they see every request
// Node hands to Next from then on (the socket's address, a typed 405).
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { installServerHooks } = await import('./lib/http/install-server-hooks');
  installServerHooks();
  const { startUpOrExit } = await import('./lib/start-up');
  await startUpOrExit();
}
