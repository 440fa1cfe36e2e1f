// Starts the fakes the browser flows need before the app starts (none yet beyond the sandbox payer, which is
// built in). Returns the teardown.
export default async function globalSetup() {
  const stops: Array<() => Promise<void>> = [];
  return async () => {
    for (const stop of stops) await stop();
  };
}
