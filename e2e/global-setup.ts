// Starts the fakes the browser flows need (the sandbox payer is built in): the fake EMR on its fixed port, which
// the app reaches through E2E_ENV's EMR_VENDORS. Returns the teardown.
import { startFakeEmr } from '../test/fakes/fake-emr';
import { E2E_EMR_CLIENT_ID, E2E_FAKE_EMR_PORT } from './e2e-env';

export default async function globalSetup() {
  const stops: Array<() => Promise<void>> = [];
  const emr = await startFakeEmr({ clientId: E2E_EMR_CLIENT_ID, port: E2E_FAKE_EMR_PORT });
  stops.push(() => emr.close());
  return async () => {
    for (const stop of stops) await stop();
  };
}
