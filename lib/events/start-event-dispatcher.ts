// Runs the dispatcher in a working instance (APP_ROLE all or worker): every second it sends whatever deliveries
// are due. The outbox rows are the queue (their lease and per-object order are the dispatcher's own, see
// deliver-due-events.ts), so the pg-boss engine's retry timing, which cannot wait behind an earlier delivery of
// the same object, is not used for them; any number of instances may run this together.
import { deliverDueEvents, type DispatchDeps } from './deliver-due-events';

const TICK_MS = 1000;

export function startEventDispatcher(deps: DispatchDeps): { stop(): void } {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    deliverDueEvents(deps)
      .catch((error: unknown) =>
        deps.log.error({ err: error instanceof Error ? error.message : String(error) }, 'webhook dispatch failed'),
      )
      .finally(() => (running = false));
  }, TICK_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
