// A fake payer endpoint speaking CAQH CORE Connectivity (vC2.2.0, HTTP MIME multipart, real-time) on loopback.
// It owns its own minimal 270 reading and answers from checked-in synthetic 271 templates in
// fixtures/core-payer/; it deliberately imports nothing from lib/x12, so a symmetric bug cannot hide.
import { randomUUID, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

export type FakePayerBehaviour = 'ok' | 'timeout' | 'http-500' | 'garbage' | 'core-error';

export type FakePayerRequest = {
  /** Every text field of the multipart envelope, as the fake parsed it. */
  fields: Record<string, string>;
  /** The `x-correlation-id` request header, or null when absent. */
  correlationId: string | null;
};

export type FakePayer = {
  url: string;
  username: string;
  password: string;
  senderId: string;
  receiverId: string;
  /** Live: every HTTP request that reached the server, authenticated or not. */
  readonly calls: number;
  /** Live: the most requests the server held at once. */
  readonly peakInFlight: number;
  /** When the exchanges since the last call began and ended, and how long each connection sat between them. */
  takeTimings(): FakePayerTimings;
  /** Envelopes that passed Basic auth and parsed, in arrival order. */
  received: FakePayerRequest[];
  setBehaviour(behaviour: FakePayerBehaviour): void;
  setLatency(latencyMs: number): void;
  close(): Promise<void>;
};

/**
 * `performance.now()` instants of the first request to arrive and the last answer written (null when none), and
 * each turnaround: the time from an answer written on a connection to the next request arriving on it, which is
 * what the client spent between two exchanges of one slot (bench/roster).
 */
type FakePayerTimings = { firstArrival: number | null; lastAnswer: number | null; turnaroundsMs: number[] };

// Text a real payer might put in an error; tests assert it never reaches our clients.
export const FAKE_PAYER_ERROR_TEXT = 'MAINFRAME ELIG-7 DOWN FOR BATCH WINDOW (PAYER INTERNAL)';

const FIXTURES_DIR = path.join(import.meta.dirname, 'fixtures', 'core-payer');
const REQUEST_PAYLOAD_TYPE = 'X12_270_Request_005010X279A1';
const CORE_FIELDS = [
  'PayloadType',
  'ProcessingMode',
  'PayloadID',
  'TimeStamp',
  'SenderID',
  'ReceiverID',
  'CORERuleVersion',
  'Payload',
] as const;

type Template =
  | '271-active-ppo'
  | '271-inactive'
  | '271-prior-auth'
  | '271-out-of-network'
  | '271-subscriber-not-found'
  | '271-payer-unavailable'
  | '999-rejected';

const templateCache = new Map<Template, string>();
function loadTemplate(name: Template): string {
  let text = templateCache.get(name);
  if (text === undefined) {
    text = readFileSync(path.join(FIXTURES_DIR, `${name}.x12`), 'utf8');
    templateCache.set(name, text);
  }
  return text;
}

// The sandbox's member-id scenarios (ELIGIBILITY.md "Sandbox payer"), so live-mode tests read the same answers.
function chooseTemplate(memberId: string): Template {
  if (memberId.startsWith('DEMO-INACTIVE')) return '271-inactive';
  if (memberId.startsWith('DEMO-PRIORAUTH')) return '271-prior-auth';
  if (memberId.startsWith('DEMO-OON')) return '271-out-of-network';
  if (memberId.startsWith('DEMO-NOTFOUND')) return '271-subscriber-not-found';
  if (memberId.startsWith('DEMO-DOWN')) return '271-payer-unavailable';
  return '271-active-ppo';
}

export async function startFakePayer(
  options: { latencyMs?: number; behaviour?: FakePayerBehaviour } = {},
): Promise<FakePayer> {
  const username = 'fake-core-user';
  const password = `fake-core-pass-${randomUUID()}`;
  const senderId = 'CLINICSUBMIT01';
  const receiverId = 'FAKEPAYER01';
  let behaviour: FakePayerBehaviour = options.behaviour ?? 'ok';
  let latencyMs = options.latencyMs ?? 0;
  let calls = 0;
  let inFlight = 0;
  let peakInFlight = 0;
  let controlNumber = 0;
  const received: FakePayerRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();

  const expectedAuthorization = Buffer.from(
    `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`,
    'utf8',
  );

  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const arrived = performance.now();
    const body = await readBody(req);

    if (!isAuthorized(req.headers.authorization, expectedAuthorization)) {
      // CORE: an envelope that fails authentication gets HTTP 401 and is not processed.
      res.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Basic realm="CORE"' });
      res.end(`401 Unauthorized: ${FAKE_PAYER_ERROR_TEXT}`);
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST' }).end();
      return;
    }

    let fields: Record<string, string>;
    try {
      fields = await parseMultipart(req, body);
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('Bad Request: not a CORE multipart envelope');
      return;
    }
    const correlationHeader = req.headers['x-correlation-id'];
    received.push({ fields, correlationId: typeof correlationHeader === 'string' ? correlationHeader : null });
    const answer = answerEnvelope(fields);

    // The latency is the payer's whole answer time, counted from the request's arrival: the fake's own
    // parsing and 271 building happen inside it, as a real endpoint's processing does.
    if (latencyMs > 0) await wait(latencyMs - (performance.now() - arrived));
    if (res.destroyed) return;

    switch (behaviour) {
      case 'timeout':
        return; // Held until the client gives up or close() ends the connection.
      case 'http-500':
        res.writeHead(500, { 'content-type': 'text/plain' }).end(`Internal Server Error: ${FAKE_PAYER_ERROR_TEXT}`);
        return;
      case 'garbage':
        res.writeHead(200, { 'content-type': 'multipart/form-data; boundary=core-fake-boundary' });
        res.end('\u0000\u0001<html>Service Unavailable</html> not a multipart body at all');
        return;
      case 'core-error':
        sendEnvelope(res, 200, {
          ...responseHeaderFields(fields, 'X12_271_Response_005010X279A1'),
          ErrorCode: 'Receiver',
          ErrorMessage: FAKE_PAYER_ERROR_TEXT,
        });
        return;
      case 'ok':
        sendEnvelope(res, answer.status, answer.fields);
    }
  }

  /** The envelope of a normal answer: an envelope error, a 999 for an unreadable 270, or the member's 271. */
  function answerEnvelope(fields: Record<string, string>): { status: number; fields: Record<string, string> } {
    const envelopeError = validateEnvelope(fields, { senderId, receiverId });
    if (envelopeError !== null) {
      // CORE: an envelope error is answered with its ErrorCode and no payload.
      return {
        status: 400,
        fields: {
          ...responseHeaderFields(fields, 'X12_271_Response_005010X279A1'),
          ErrorCode: envelopeError.code,
          ErrorMessage: envelopeError.message,
        },
      };
    }
    controlNumber += 1;
    const request = read270(fields.Payload ?? '');
    const payload =
      request === null
        ? fillTemplate(loadTemplate('999-rejected'), { control: controlNumber })
        : fillTemplate(loadTemplate(chooseTemplate(request.memberId)), { control: controlNumber, request });
    return {
      status: 200,
      fields: {
        ...responseHeaderFields(
          fields,
          request === null ? 'X12_999_Response_005010X231A1' : 'X12_271_Response_005010X279A1',
        ),
        Payload: payload,
        ErrorCode: 'Success',
        ErrorMessage: 'Envelope was processed successfully.',
      },
    };
  }

  let timings: FakePayerTimings = { firstArrival: null, lastAnswer: null, turnaroundsMs: [] };
  let answeredAt = new WeakMap<object, number>(); // by connection, within the current timings
  const server = createServer((req, res) => {
    const arrived = performance.now();
    const previous = answeredAt.get(req.socket);
    if (previous !== undefined) timings.turnaroundsMs.push(arrived - previous);
    timings.firstArrival ??= arrived;
    res.on('finish', () => {
      timings.lastAnswer = performance.now();
      answeredAt.set(req.socket, timings.lastAnswer);
    });
    calls += 1;
    inFlight += 1;
    peakInFlight = Math.max(peakInFlight, inFlight);
    res.on('close', () => {
      inFlight -= 1;
    });
    handle(req, res).catch(() => {
      if (!res.headersSent && !res.destroyed) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/core/realtime`,
    username,
    password,
    senderId,
    receiverId,
    get calls() {
      return calls;
    },
    get peakInFlight() {
      return peakInFlight;
    },
    takeTimings() {
      const taken = timings;
      timings = { firstArrival: null, lastAnswer: null, turnaroundsMs: [] };
      answeredAt = new WeakMap(); // a connection's first request of the next window has no turnaround in it
      return taken;
    },
    received,
    setBehaviour(next) {
      behaviour = next;
    },
    setLatency(ms) {
      latencyMs = ms;
    },
    close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      server.closeAllConnections();
      return new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

// Constant time: the header is attacker-controlled on a real endpoint.
function isAuthorized(header: string | undefined, expected: Buffer): boolean {
  if (header === undefined) return false;
  const actual = Buffer.from(header, 'utf8');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

async function parseMultipart(req: IncomingMessage, body: Buffer): Promise<Record<string, string>> {
  const contentType = req.headers['content-type'] ?? '';
  if (!/^multipart\/form-data\s*;/i.test(contentType)) throw new Error('not multipart/form-data');
  const form = await new Request('http://fake-payer.invalid/', {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: new Uint8Array(body),
  }).formData();
  const fields: Record<string, string> = {};
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') fields[name] = value;
  }
  return fields;
}

function validateEnvelope(
  fields: Record<string, string>,
  expected: { senderId: string; receiverId: string },
): { code: string; message: string } | null {
  for (const name of CORE_FIELDS) {
    if (!fields[name]) return { code: `${name}Required`, message: `${name} is required` };
  }
  if (fields.PayloadType !== REQUEST_PAYLOAD_TYPE) return { code: 'Sender', message: 'PayloadType not supported' };
  if (fields.ProcessingMode !== 'RealTime') return { code: 'Sender', message: 'ProcessingMode not supported' };
  if (fields.CORERuleVersion !== '2.2.0') return { code: 'VersionMismatch', message: 'CORERuleVersion not supported' };
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(fields.PayloadID ?? '')) {
    return { code: 'Sender', message: 'PayloadID is not a UUID' };
  }
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(fields.TimeStamp ?? '')) {
    return { code: 'Sender', message: 'TimeStamp is not UTC YYYY-MM-DDTHH:MM:SSZ' };
  }
  if (fields.SenderID !== expected.senderId) return { code: 'Sender', message: 'SenderID unknown' };
  if (fields.ReceiverID !== expected.receiverId) return { code: 'Sender', message: 'ReceiverID unknown' };
  return null;
}

function responseHeaderFields(request: Record<string, string>, payloadType: string): Record<string, string> {
  return {
    PayloadType: payloadType,
    ProcessingMode: 'RealTime',
    PayloadID: randomUUID(),
    TimeStamp: `${new Date().toISOString().slice(0, 19)}Z`,
    // The payer answers as the receiver of the request, back to its sender.
    SenderID: request.ReceiverID ?? '',
    ReceiverID: request.SenderID ?? '',
    CORERuleVersion: '2.2.0',
  };
}

// Written by hand rather than through FormData, so the adapter's parser meets bytes we did not produce with it.
function sendEnvelope(res: ServerResponse, status: number, fields: Record<string, string>): void {
  const boundary = `----CoreFakeBoundary${randomUUID().replaceAll('-', '')}`;
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  res.writeHead(status, { 'content-type': `multipart/form-data; boundary=${boundary}` });
  res.end(`${parts.join('')}--${boundary}--\r\n`);
}

type Request270 = {
  memberId: string;
  firstName: string;
  lastName: string;
  dob: string;
  trace: string;
  traceOriginator: string;
  providerName: string;
  providerNpi: string;
  serviceType: string;
  /** CCYYMMDD: DTP*291 of the 270, else today (UTC). */
  dateOfService: string;
};

// Minimal 005010X279A1 270 reading, on purpose independent of lib/x12: delimiters from the ISA, then the
// few segments a payer needs to find the member (2100C NM1*IL, 2000C TRN, DMG, DTP*291, 2110C EQ).
export function read270(x12: string): Request270 | null {
  const text = x12.trimStart();
  if (!text.startsWith('ISA') || text.length < 106) return null;
  const elementSeparator = text[3] as string;
  const repetitionSeparator = text[82] as string;
  const segmentTerminator = text[105] as string;
  const segments = text
    .split(segmentTerminator)
    .map((segment) => segment.trim())
    .filter((segment) => segment !== '')
    .map((segment) => segment.split(elementSeparator));
  if (!segments.some((s) => s[0] === 'ST' && s[1] === '270')) return null;

  const find = (id: string, qualifier: string) => segments.find((s) => s[0] === id && s[1] === qualifier);
  const subscriber = find('NM1', 'IL');
  const provider = find('NM1', '1P');
  const trace = find('TRN', '1');
  const dmg = find('DMG', 'D8');
  const eq = segments.find((s) => s[0] === 'EQ');
  const dos = find('DTP', '291');
  if (subscriber?.[8] !== 'MI' || trace === undefined) return null;

  const request: Request270 = {
    memberId: subscriber[9] ?? '',
    lastName: subscriber[3] ?? '',
    firstName: subscriber[4] ?? '',
    dob: dmg?.[2] ?? '',
    trace: trace[2] ?? '',
    traceOriginator: trace[3] ?? '',
    providerName: provider?.[3] ?? '',
    providerNpi: provider?.[9] ?? '',
    serviceType: (eq?.[1] ?? '30').split(repetitionSeparator)[0] || '30',
    dateOfService: (dos?.[3] ?? '').slice(0, 8) || formatDate(new Date()),
  };
  // Every value goes back into a 271 with our delimiters; one that cannot travel safely is a bad request.
  const safe = /^[A-Za-z0-9 .,'&/-]+$/;
  const required = [request.memberId, request.lastName, request.firstName, request.dob, request.trace];
  const optional = [request.traceOriginator, request.providerName, request.providerNpi, request.serviceType];
  if (!required.every((v) => safe.test(v))) return null;
  if (!optional.every((v) => v === '' || safe.test(v))) return null;
  if (!/^\d{8}$/.test(request.dateOfService) || !/^\d{8}$/.test(request.dob)) return null;
  return request;
}

function fillTemplate(template: string, context: { control: number; request?: Request270 }): string {
  const now = new Date();
  const yyyymmdd = formatDate(now);
  const values: Record<string, string> = {
    ISA_DATE: yyyymmdd.slice(2),
    ISA_TIME: now.toISOString().slice(11, 16).replace(':', ''),
    ISA_CONTROL: String(context.control).padStart(9, '0'),
    GS_CONTROL: String(context.control),
    DATE: yyyymmdd,
  };
  const request = context.request;
  if (request !== undefined) {
    const year = Number(request.dateOfService.slice(0, 4));
    const month = Number(request.dateOfService.slice(4, 6));
    // "Coverage ended last month": the day before the first of the date of service's month.
    const coverageEnd = new Date(Date.UTC(year, month - 1, 0));
    Object.assign(values, {
      MEMBER_ID: request.memberId,
      FIRST_NAME: request.firstName,
      LAST_NAME: request.lastName,
      DOB: request.dob,
      TRACE: request.trace,
      TRACE_ORIGINATOR: request.traceOriginator || '9FAKEPAYER',
      PROVIDER_NAME: request.providerName || 'UNKNOWN PROVIDER',
      PROVIDER_NPI: request.providerNpi || '0000000000',
      SERVICE_TYPE: request.serviceType,
      PLAN_START: `${year}0101`,
      // An inactive member was covered for the whole year before coverage ended.
      COVERAGE_START: `${coverageEnd.getUTCFullYear() - 1}0101`,
      COVERAGE_END: formatDate(coverageEnd),
    });
  }
  return template.replace(/\{\{([A-Z_]+)\}\}/g, (placeholder, key: string) => {
    const value = values[key];
    if (value === undefined) throw new Error(`fixture placeholder ${placeholder} has no value`);
    return value;
  });
}

function formatDate(date: Date): string {
  return date.toISOString().slice(0, 10).replaceAll('-', '');
}
