// Polls `read` until `done` holds or the time is up, and returns the last value either way, so the caller's own
// assertion on it says what was still missing (a background job, a webhook delivery, the sandbox payer's 835).
export async function until<T>(
  read: () => Promise<T> | T,
  done: (value: T) => boolean,
  timeoutMs = 30_000,
  everyMs = 250,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
