// npm run bench -- scale: requests per second of eligibility verify on a cache hit through 1 instance and through
// 3 instances of the built app on one PostgreSQL (loopback, autocannon, the same total connections either way).
// The ratio is 3-instance rps / 1-instance rps. On this 2-core machine the honest expectation is near 1 (the cores,
// not the process, are the ceiling); the bench is there for machines with cores to spare, where it should approach
// the instance count. The last line is one JSON object {"name","ratio","target",...}.
import autocannon from 'autocannon';
import { startApp, type TestApp } from '../test/support/app';
import { signIn } from '../test/support/http';
import { createTestDatabase } from '../test/support/postgres';
import { median } from './support/median';

const DURATION_SECONDS = Number(process.argv[3] ?? 4);
const CONNECTIONS = 18;
const ROUNDS = 3;
const VERIFY_BODY = JSON.stringify({
  patientId: 'pat_n_001',
  firstName: 'Avery',
  lastName: 'Northside001',
  dob: '1971-02-11',
  memberId: 'DEMO-ACTIVE-N001',
  payerName: 'Aetna',
  npi: '1234567893',
  serviceType: '30',
});

const database = await createTestDatabase();
const apps: TestApp[] = [];
try {
  apps.push(...(await Promise.all([1, 2, 3].map(() => startApp({ reuse: database, env: { LOG_LEVEL: 'error' } })))));
  const staff = await signIn(apps[0]!, 'admin@northside.test');
  const cookie = staff.cookieHeader();
  const verify = (app: TestApp, connections: number, duration = DURATION_SECONDS) =>
    autocannon({
      url: `${app.url}/api/eligibility/verify`,
      method: 'POST',
      body: VERIFY_BODY,
      duration,
      connections,
      headers: { 'content-type': 'application/json', cookie },
    });
  // Warm every instance: the first verify fills the shared cache, the rest warm JIT and pools.
  for (const app of apps) await verify(app, 4, 2);

  const one: number[] = [];
  const three: number[] = [];
  let non2xx = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const single = await verify(apps[0]!, CONNECTIONS);
    one.push(single.requests.average);
    const spread = await Promise.all(apps.map((app) => verify(app, CONNECTIONS / 3)));
    three.push(spread.reduce((sum, r) => sum + r.requests.average, 0));
    non2xx += single.non2xx + spread.reduce((sum, r) => sum + r.non2xx, 0);
  }
  const ratio = Number(median(one.map((rps, i) => three[i]! / rps)).toFixed(3));
  console.log(`3/1 by round: ${one.map((rps, i) => (three[i]! / rps).toFixed(3)).join(', ')}`);
  console.log(
    JSON.stringify({
      name: 'scale',
      ratio,
      target: 0.9,
      instances: 3,
      rounds: ROUNDS,
      secondsPerRun: DURATION_SECONDS,
      connections: CONNECTIONS,
      oneInstanceRps: Math.round(median(one)),
      threeInstancesRps: Math.round(median(three)),
      non2xx,
      note: 'target: scaling out on one machine costs at most 10 %; with spare cores the ratio should approach 3',
    }),
  );
} finally {
  await Promise.all(apps.map((app) => app.stop()));
  await database.drop();
}
