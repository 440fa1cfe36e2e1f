// The process's way out on SIGTERM (a supervisor stopping it, a deploy) or SIGINT: no new job is taken and the jobs
// in flight get a grace period to finish (then pg-boss fails what is left, so another instance retries it at once
// rather than after its expiry or heartbeat), the HTTP requests in flight are answered, and the process exits
// 128 + the signal's number, as Next's own handler does. It does not decide how long a supervisor waits (give it more
// than the deadline: docs/operations.md "Stopping an instance").
//
// `npm start` leaves the signals to this (NEXT_MANUAL_SIG_HANDLE, scripts/start.ts): Next's handler exits as soon
// as its HTTP server has closed, which cuts running jobs short. A server started otherwise keeps Next's handler
// too, and whichever exits first wins. Next gives the app no handle on its server: a request in flight has been
// announced on Node's `http.server.request.start` channel, which names the server, and a server that never had a
// request has nothing to wait for.
import { subscribe } from 'node:diagnostics_channel';
import type { Server } from 'node:http';
import type { Logger } from '../log';

const EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const;
type Signal = keyof typeof EXIT_CODES;

/** Beyond the deadline, what the stop itself may take (pg-boss failing the jobs left and closing its pool). */
const CLOSING_MS = 5_000;

export type GracefulExitOptions = {
  /** Stops this process's background work: resolves once the jobs in flight finished or were failed. */
  stopWork(): Promise<void>;
  log: Logger;
  /** How long the HTTP requests in flight may take before their connections are closed. */
  deadlineMs: number;
  /** Where the signals come from; default `process`. */
  signals?: Pick<NodeJS.EventEmitter, 'on'>;
  /** Default `process.exit`. */
  exit?: (code: number) => void;
};

/** Installs the handlers of SIGTERM and SIGINT; a signal after the first changes nothing. */
export function installGracefulExit(options: GracefulExitOptions): void {
  const servers = new Set<Server>();
  subscribe('http.server.request.start', (message) => {
    const { server } = message as { server?: Server };
    if (server) servers.add(server);
  });
  const signals = options.signals ?? process;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let stopping = false;
  for (const signal of Object.keys(EXIT_CODES) as Signal[]) {
    signals.on(signal, () => {
      if (stopping) return;
      stopping = true;
      void stopGracefully(signal, [...servers], options).finally(() => exit(EXIT_CODES[signal]));
    });
  }
}

async function stopGracefully(signal: Signal, servers: Server[], options: GracefulExitOptions): Promise<void> {
  const { log, deadlineMs } = options;
  const started = Date.now();
  log.info({ signal, deadlineMs }, 'stopping: taking no new job or connection, finishing those in flight');
  const work = options.stopWork().catch((error: unknown) => {
    log.error({ err: error instanceof Error ? error.message : String(error) }, 'background work did not stop cleanly');
  });
  const stopped = Promise.all([work, ...servers.map((server) => closeServer(server, deadlineMs))]);
  let late: NodeJS.Timeout | undefined;
  const giveUp = new Promise<'late'>((resolve) => (late = setTimeout(resolve, deadlineMs + CLOSING_MS, 'late')));
  const outcome = await Promise.race([stopped, giveUp]);
  clearTimeout(late);
  if (outcome === 'late') log.warn({ signal }, 'stopping took longer than its deadline: exiting anyway');
  else log.info({ signal, ms: Date.now() - started }, 'stopped');
}

/** How often a closing server's connections that went idle (a keep-alive after its answer) are closed. */
const IDLE_SWEEP_MS = 100;

/** Stops accepting, lets the requests in flight finish, and closes what is still open at the deadline. */
function closeServer(server: Server, deadlineMs: number): Promise<void> {
  return new Promise((resolve) => {
    const deadline = setTimeout(() => server.closeAllConnections(), deadlineMs);
    // close() ends the connections idle at the time only; one answered later would stay for its keep-alive.
    const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
    // The callback also runs (with an error) when the server was closed already.
    server.close(() => {
      clearTimeout(deadline);
      clearInterval(sweep);
      resolve();
    });
  });
}
