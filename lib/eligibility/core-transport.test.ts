// The live CORE adapter against a fake payer speaking CAQH CORE Connectivity over loopback HTTP.
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '@/lib/errors';
import { FAKE_PAYER_ERROR_TEXT, startFakePayer, type FakePayer } from '@/test/fakes/core-payer';
import type { Egress } from '@/lib/outbound/egress';
import { coreTransport } from './core-transport';

/** A payer answering exactly this, in place of the egress client (the outside world, not our code, is faked). */
function answering(respond: () => Response): Egress {
  return {
    async request() {
      const response = respond();
      const body = Buffer.from(await response.arrayBuffer());
      return { status: response.status, headers: response.headers, body, text: () => body.toString('utf8') };
    },
    open: () => Promise.reject(new Error('not used by the CORE transport')),
  };
}

const PAYLOAD_ID = '3f2b8c1e-5d4a-4e6b-9c7d-0a1b2c3d4e5f';
const CORRELATION_ID = 'corr-0123456789abcdef';
const FAILURE = {
  name: 'AppError',
  code: 'TRANSPORT_FAILED',
  status: 502,
  message: 'The payer could not be reached; try the eligibility check again later',
};

// A synthetic 005010X279A1 270, written out here so the test does not depend on our own 270 builder.
function synthetic270(memberId: string): string {
  return [
    'ISA*00*          *00*          *ZZ*CLINICSUBMIT01 *ZZ*FAKEPAYER01    *260315*0930*^*00501*000000101*0*T*:~',
    'GS*HS*CLINICSUBMIT01*FAKEPAYER01*20260315*0930*101*X*005010X279A1~',
    'ST*270*0001*005010X279A1~',
    'BHT*0022*13*TRACE-0001*20260315*0930~',
    'HL*1**20*1~',
    'NM1*PR*2*SYNTHETIC HEALTH PLAN*****PI*FAKEPAYER~',
    'HL*2*1*21*1~',
    'NM1*1P*2*NORTHSIDE CLINIC*****XX*1234567893~',
    'HL*3*2*22*0~',
    'TRN*1*TRACE-0001*9CLINICSUB~',
    `NM1*IL*1*DOE*JANE****MI*${memberId}~`,
    'DMG*D8*19800102~',
    'DTP*291*D8*20260315~',
    'EQ*30~',
    'SE*13*0001~',
    'GE*1*101~',
    'IEA*1*000000101~',
  ].join('');
}

// The fake stamps its interchange with the real time; mask those elements so the rest compares exactly.
function maskStamps(x12: string): string {
  return x12
    .replace(/^(ISA\*(?:[^*]*\*){8})\d{6}\*\d{4}\*/, '$1YYMMDD*HHMM*')
    .replace(/^(GS\*(?:[^*]*\*){3})\d{8}\*\d{4}\*/m, '$1CCYYMMDD*HHMM*')
    .replace(/^(BHT\*(?:[^*]*\*){3})\d{8}\*\d{4}~/m, '$1CCYYMMDD*HHMM~');
}

const ACTIVE_PPO_271 = `ISA*00*          *00*          *ZZ*FAKEPAYER      *ZZ*FAKESUBMITTER  *YYMMDD*HHMM*^*00501*000000001*0*T*:~
GS*HB*FAKEPAYER*FAKESUBMITTER*CCYYMMDD*HHMM*1*X*005010X279A1~
ST*271*0001*005010X279A1~
BHT*0022*11*TRACE-0001*CCYYMMDD*HHMM~
HL*1**20*1~
NM1*PR*2*SYNTHETIC HEALTH PLAN*****PI*FAKEPAYER~
HL*2*1*21*1~
NM1*1P*2*NORTHSIDE CLINIC*****XX*1234567893~
HL*3*2*22*0~
TRN*2*TRACE-0001*9CLINICSUB~
NM1*IL*1*DOE*JANE****MI*DEMO-ACTIVE-N001~
REF*6P*GRP-004417*SYNTHETIC EMPLOYER GROUP~
N3*100 EXAMPLE STREET~
N4*SPRINGFIELD*IL*62701~
DMG*D8*19800102~
DTP*346*D8*20260101~
EB*1*IND*30*PR*GOLD PPO 1500~
EB*C*IND*30***23*1500.00*****Y~
EB*C*IND*30***24*500.00*****Y~
EB*C*IND*30***29*1000.00*****Y~
EB*G*IND*30***23*6000.00*****Y~
EB*G*IND*30***24*1500.00*****Y~
EB*G*IND*30***29*4500.00*****Y~
EB*B*IND*98***27*25.00*****Y~
MSG*PRIMARY CARE OFFICE VISIT~
EB*B*IND*98***27*50.00*****Y~
MSG*SPECIALIST OFFICE VISIT~
EB*A*IND*30*****.2****Y~
MSG*PROVIDER IS IN NETWORK~
SE*28*0001~
GE*1*1~
IEA*1*000000001~
`;

async function failureOf(promise: Promise<unknown>): Promise<AppError> {
  const outcome = await promise.then(
    () => null,
    (error: unknown) => error,
  );
  if (!(outcome instanceof AppError)) throw new Error(`expected an AppError, got ${String(outcome)}`);
  return outcome;
}

function describeFailure(error: AppError) {
  return { name: error.name, code: error.code, status: error.status, message: error.message };
}

let fake: FakePayer;

beforeEach(async () => {
  fake = await startFakePayer();
});

afterEach(async () => {
  await fake.close();
});

function transportFor(payer: FakePayer, overrides: Partial<Parameters<typeof coreTransport>[0]> = {}) {
  return coreTransport({
    url: payer.url,
    username: payer.username,
    password: payer.password,
    senderId: payer.senderId,
    receiverId: payer.receiverId,
    clock: () => new Date('2026-03-15T09:30:05.123Z'),
    newPayloadId: () => PAYLOAD_ID,
    ...overrides,
  });
}

describe('coreTransport', () => {
  it('is the live transport', () => {
    expect(transportFor(fake).mode).toBe('live');
  });

  it('sends a CORE real-time envelope and resolves with the payer 271', async () => {
    const x12 = synthetic270('DEMO-ACTIVE-N001');

    const answer = await transportFor(fake).send(x12, { correlationId: CORRELATION_ID });

    expect(maskStamps(answer)).toBe(ACTIVE_PPO_271);
    expect(fake.calls).toBe(1);
    expect(fake.received).toEqual([
      {
        correlationId: CORRELATION_ID,
        fields: {
          PayloadType: 'X12_270_Request_005010X279A1',
          ProcessingMode: 'RealTime',
          PayloadID: PAYLOAD_ID,
          TimeStamp: '2026-03-15T09:30:05Z',
          SenderID: 'CLINICSUBMIT01',
          ReceiverID: 'FAKEPAYER01',
          CORERuleVersion: '2.2.0',
          Payload: x12,
        },
      },
    ]);
  });

  it('mints a UUID PayloadID and a second-precision UTC TimeStamp by default', async () => {
    const transport = coreTransport({
      url: fake.url,
      username: fake.username,
      password: fake.password,
      senderId: fake.senderId,
      receiverId: fake.receiverId,
    });

    await transport.send(synthetic270('DEMO-ACTIVE-N002'), { correlationId: CORRELATION_ID });

    const fields = fake.received[0]?.fields;
    expect(fields?.PayloadID).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(fields?.TimeStamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  });

  it.each([
    [
      'DEMO-INACTIVE-N002',
      ['DTP*356*D8*20250101~', 'DTP*357*D8*20260228~', 'EB*6*IND*30~', 'MSG*COVERAGE TERMINATED~'],
    ],
    ['DEMO-NOTFOUND-N005', ['NM1*IL*1*DOE*JANE****MI*DEMO-NOTFOUND-N005~', 'AAA*Y**75*C~', 'DMG*D8*19800102~']],
    ['DEMO-DOWN-N006', ['NM1*PR*2*SYNTHETIC HEALTH PLAN*****PI*FAKEPAYER~', 'AAA*Y**42*R~', 'HL*2*1*21*1~']],
  ])('passes the payer answer for %s back untouched', async (memberId, expectedRun) => {
    const answer = await transportFor(fake).send(synthetic270(memberId), { correlationId: CORRELATION_ID });

    const lines = answer.split('\n');
    const start = lines.indexOf(expectedRun[0] as string);
    expect(lines.slice(start, start + expectedRun.length)).toEqual(expectedRun);
  });

  it('returns a 999 rejection raw, for the caller to read as a rejection', async () => {
    const answer = await transportFor(fake).send('ISA*NOT A READABLE 270~', { correlationId: CORRELATION_ID });

    expect(maskStamps(answer))
      .toBe(`ISA*00*          *00*          *ZZ*FAKEPAYER      *ZZ*FAKESUBMITTER  *YYMMDD*HHMM*^*00501*000000001*0*T*:~
GS*FA*FAKEPAYER*FAKESUBMITTER*CCYYMMDD*HHMM*1*X*005010X231A1~
ST*999*0001*005010X231A1~
AK1*HS*1*005010X279A1~
AK2*270*0001*005010X279A1~
IK5*R*5~
AK9*R*1*1*0~
SE*6*0001~
GE*1*1~
IEA*1*000000001~
`);
  });

  it('holds concurrent requests in flight together, without serialising them', async () => {
    fake.setLatency(150);
    const transport = transportFor(fake);

    await Promise.all(
      ['DEMO-ACTIVE-A', 'DEMO-ACTIVE-B', 'DEMO-ACTIVE-C'].map((memberId) =>
        transport.send(synthetic270(memberId), { correlationId: CORRELATION_ID }),
      ),
    );

    expect({ calls: fake.calls, peakInFlight: fake.peakInFlight }).toEqual({ calls: 3, peakInFlight: 3 });
  });

  describe('fails with TRANSPORT_FAILED and a neutral message', () => {
    const cases: Array<{
      name: string;
      arrange: (payer: FakePayer) => void;
      options?: (payer: FakePayer) => Partial<Parameters<typeof coreTransport>[0]>;
      receivedCount: number;
    }> = [
      {
        name: 'when the payer does not answer within timeoutMs',
        arrange: (payer) => payer.setLatency(2_000),
        options: () => ({ timeoutMs: 100 }),
        receivedCount: 1,
      },
      {
        name: 'when the payer holds the request open',
        arrange: (payer) => payer.setBehaviour('timeout'),
        options: () => ({ timeoutMs: 100 }),
        receivedCount: 1,
      },
      { name: 'on HTTP 500', arrange: (payer) => payer.setBehaviour('http-500'), receivedCount: 1 },
      { name: 'on an unreadable multipart body', arrange: (payer) => payer.setBehaviour('garbage'), receivedCount: 1 },
      {
        name: 'on a CORE ErrorCode other than Success',
        arrange: (payer) => payer.setBehaviour('core-error'),
        receivedCount: 1,
      },
      {
        name: 'on wrong credentials (HTTP 401), before the payer reads the envelope',
        arrange: () => undefined,
        options: () => ({ password: 'wrong-password-do-not-echo' }),
        receivedCount: 0,
      },
      {
        name: 'on an envelope error (unknown SenderID)',
        arrange: () => undefined,
        options: () => ({ senderId: 'SOMEONE-ELSE' }),
        receivedCount: 1,
      },
    ];

    it.each(cases)('$name', async ({ arrange, options, receivedCount }) => {
      arrange(fake);
      const overrides = options?.(fake) ?? {};

      const error = await failureOf(
        transportFor(fake, overrides).send(synthetic270('DEMO-ACTIVE-N001'), { correlationId: CORRELATION_ID }),
      );

      expect(describeFailure(error)).toEqual(FAILURE);
      expect({ calls: fake.calls, received: fake.received.length }).toEqual({ calls: 1, received: receivedCount });
      // Neither the client message nor the logged cause may carry payer text, credentials or X12.
      const exposed = `${error.message} ${String(error.cause)}`;
      for (const secret of [
        FAKE_PAYER_ERROR_TEXT,
        fake.password,
        overrides.password ?? fake.password,
        'DEMO-ACTIVE-N001',
      ]) {
        expect(exposed).not.toContain(secret);
      }
    });
  });

  it('fails with TRANSPORT_FAILED when the payer cannot be reached at all', async () => {
    const unreachable = fake.url;
    await fake.close();
    fake = await startFakePayer();

    const error = await failureOf(
      transportFor(fake, { url: unreachable }).send(synthetic270('DEMO-ACTIVE-N001'), {
        correlationId: CORRELATION_ID,
      }),
    );

    expect(describeFailure(error)).toEqual(FAILURE);
    expect(fake.calls).toBe(0);
  });

  describe('rejects an envelope it cannot trust', () => {
    const envelope = (fields: Record<string, string>) => {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.set(name, value);
      return form;
    };
    const good = {
      PayloadType: 'X12_271_Response_005010X279A1',
      ProcessingMode: 'RealTime',
      PayloadID: PAYLOAD_ID,
      TimeStamp: '2026-03-15T09:30:06Z',
      SenderID: 'FAKEPAYER01',
      ReceiverID: 'CLINICSUBMIT01',
      CORERuleVersion: '2.2.0',
      Payload: 'ISA*00*...~',
      ErrorCode: 'Success',
      ErrorMessage: 'Envelope was processed successfully.',
    };
    const multipart = (boundary: string, body: string) =>
      new Blob([body], { type: `multipart/form-data; boundary=${boundary}` });
    const { Payload: _payload, ...withoutPayload } = good;
    const { ErrorCode: _errorCode, ...withoutErrorCode } = good;

    it.each([
      ['a Success envelope without Payload', () => new Response(envelope(withoutPayload))],
      ['a Payload that is not X12', () => new Response(envelope({ ...good, Payload: '<html>maintenance</html>' }))],
      [
        'an unexpected PayloadType',
        () => new Response(envelope({ ...good, PayloadType: 'X12_270_Request_005010X279A1' })),
      ],
      ['an envelope without ErrorCode', () => new Response(envelope(withoutErrorCode))],
      ['a 200 that is not multipart', () => Response.json({ Payload: 'ISA*00*...~', ErrorCode: 'Success' })],
      ['a redirect', () => new Response(null, { status: 302, headers: { location: 'http://elsewhere.invalid/' } })],
    ])('%s', async (_name, respond) => {
      const transport = transportFor(fake, { egress: answering(respond) });

      const error = await failureOf(
        transport.send(synthetic270('DEMO-ACTIVE-N001'), { correlationId: CORRELATION_ID }),
      );

      expect(describeFailure(error)).toEqual(FAILURE);
    });

    it.each([
      [
        'a Payload sent as a file part',
        () => {
          const form = envelope(withoutPayload);
          form.set('Payload', new Blob(['ISA*00*...~']), 'payload.x12');
          return new Response(form);
        },
      ],
      [
        'a multipart body cut short',
        () =>
          new Response(multipart('cut', '--cut\r\nContent-Disposition: form-data; name="ErrorCode"\r\n\r\nSuccess')),
      ],
      [
        'a part without a field name',
        () => new Response(multipart('nn', '--nn\r\nContent-Type: text/plain\r\n\r\nSuccess\r\n--nn--\r\n')),
      ],
      [
        'a multipart type without a boundary',
        () => new Response('--x\r\n', { headers: { 'content-type': 'multipart/form-data; charset=utf-8' } }),
      ],
    ])('%s', async (_name, respond) => {
      const transport = transportFor(fake, { egress: answering(respond) });

      const error = await failureOf(
        transport.send(synthetic270('DEMO-ACTIVE-N001'), { correlationId: CORRELATION_ID }),
      );

      expect(describeFailure(error)).toEqual(FAILURE);
    });

    it('reads a quoted boundary and a repeated field (the first wins) as FormData does, and skips a preamble and an epilogue (RFC 2046)', async () => {
      const parts = Object.entries({ ...good, Payload: 'ISA*FIRST~' }).map(
        ([name, value]) => `--b:1\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      );
      const body = `${parts.join('')}--b:1\r\nContent-Disposition: form-data; name="Payload"\r\n\r\nISA*SECOND~\r\n--b:1--\r\n`;
      const respond = (text: string) => () =>
        new Response(text, { headers: { 'content-type': 'multipart/form-data; boundary="b:1"' } });
      expect((await respond(body)().formData()).get('Payload')).toBe('ISA*FIRST~');

      for (const text of [body, `a preamble\r\n${body}an epilogue`]) {
        const transport = transportFor(fake, { egress: answering(respond(text)) });
        await expect(transport.send(synthetic270('DEMO-ACTIVE-N001'), { correlationId: CORRELATION_ID })).resolves.toBe(
          'ISA*FIRST~',
        );
      }
    });

    it('returns the Payload FormData reads from the same body, whatever the field values', async () => {
      await fc.assert(
        fc.asyncProperty(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), async (payloadTail, message) => {
          const respond = () =>
            new Response(envelope({ ...good, Payload: `ISA${payloadTail}`, ErrorMessage: message }));
          const expected = (await respond().formData()).get('Payload');
          const transport = transportFor(fake, { egress: answering(respond) });

          await expect(
            transport.send(synthetic270('DEMO-ACTIVE-N001'), { correlationId: CORRELATION_ID }),
          ).resolves.toBe(expected);
        }),
        { numRuns: 200 },
      );
    });

    it('accepts a TA1 under the rule-spelled PayloadType', async () => {
      const ta1 =
        'ISA*00*          *00*          *ZZ*FAKEPAYER      *ZZ*FAKESUBMITTER  *260315*0930*^*00501*000000104*0*T*:~TA1*000000101*260315*0930*R*025~IEA*0*000000104~';
      const transport = transportFor(fake, {
        egress: answering(
          () => new Response(envelope({ ...good, PayloadType: 'X12_TA1_Response_00501X231A1', Payload: ta1 })),
        ),
      });

      await expect(transport.send(synthetic270('DEMO-ACTIVE-N001'), { correlationId: CORRELATION_ID })).resolves.toBe(
        ta1,
      );
    });
  });
});
