// A fake claims clearinghouse speaking CAQH CORE Connectivity (vC2.2.0, HTTP MIME multipart) on loopback: batch
// mode for the 837P (submission → receipt, then 999 and 277CA retrieval by the submission's PayloadID), real
// time for the 276/277, and batch results retrieval of the 835s a test queues (each delivered until our 999 for
// its functional group acknowledges it). It counts every call and keeps every envelope. Its 999, 277CA and 277 come from checked-in
// synthetic templates in fixtures/clearinghouse/, filled from its own minimal reading of what it received: it
// imports nothing from lib/x12, so a symmetric bug cannot hide.
import { randomUUID, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

// 'unreadable-999': the 837P is received and its 999 retrieval answers a document no 999 reader accepts (a well
// formed interchange whose AK901 is not a 999 status), as a clearinghouse echoing what our reader refuses would.
// 'no-999': the 837P is received, and its 999 is never ready (NoBatchResultsFile on every retrieval).
// 'refuse': every envelope is answered with a CORE error envelope (ErrorCode Receiver): nothing is taken.
export type FakeClearinghouseBehaviour =
  'ok' | 'reject-999' | 'no-277ca' | 'timeout' | 'http-500' | 'garbage' | 'unreadable-999' | 'no-999' | 'refuse';

export type FakeClearinghouseEnvelope = { fields: Record<string, string>; correlationId: string | null };

export type FakeClearinghouse = {
  url: string;
  username: string;
  password: string;
  senderId: string;
  receiverId: string;
  /** Every HTTP request that reached the server. */
  readonly calls: number;
  /** 837P submissions accepted for processing. */
  readonly submissions: number;
  /** TCP connections opened to the server (a TLS attempt on this plain-HTTP server counts, a request does not). */
  readonly connections: number;
  /** The largest number of requests the server held at once. */
  readonly maxConcurrent: number;
  /** Envelopes that passed Basic auth and parsed, in arrival order. */
  received: FakeClearinghouseEnvelope[];
  /** Real-time 276s answered, and the claim id (REF*EJ, else TRN02) of each, in arrival order. */
  readonly statusRequests: string[];
  /** 835 retrieval requests answered (with a file or with NoBatchResultsFile). */
  readonly retrievals: number;
  /** 999s received for delivered 835s. */
  readonly acknowledgements: number;
  /** Queues an 835 interchange for retrieval; returns its file id (the PayloadID it is delivered under). */
  queueRemittance(x12: string): string;
  /** Files queued and not yet acknowledged. */
  readonly waitingRemittances: number;
  /** False: 999s are received but ignored, so a file is offered again and again (a clearinghouse without acks). */
  setHonourAcknowledgements(honour: boolean): void;
  setBehaviour(behaviour: FakeClearinghouseBehaviour): void;
  /** Holds every answer this long before sending it (0: answer at once). */
  setDelayMs(delayMs: number): void;
  close(): Promise<void>;
};

// Text a real clearinghouse might put in an error; tests assert it never reaches our clients.
/** The app's CLEARINGHOUSE_* group pointed at this fake (DECISIONS' five variables, plus the EDI contact phone). */
export function clearinghouseEnv(fake: FakeClearinghouse): Record<string, string> {
  return {
    CLEARINGHOUSE_URL: fake.url,
    CLEARINGHOUSE_USERNAME: fake.username,
    CLEARINGHOUSE_PASSWORD: fake.password,
    CLEARINGHOUSE_SENDER_ID: fake.senderId,
    CLEARINGHOUSE_RECEIVER_ID: fake.receiverId,
    CLEARINGHOUSE_CONTACT_PHONE: '5185550100',
  };
}

export const FAKE_CLEARINGHOUSE_ERROR_TEXT = 'CH-GATEWAY 7 DOWN FOR MAINTENANCE (INTERNAL)';

const FIXTURES = path.join(import.meta.dirname, 'fixtures', 'clearinghouse');
const template = (name: string) => readFileSync(path.join(FIXTURES, `${name}.x12`), 'utf8');

type Submission = { claim: Read837; controlNumber: number };

export async function startFakeClearinghouse(
  options: { behaviour?: FakeClearinghouseBehaviour } = {},
): Promise<FakeClearinghouse> {
  const username = 'fake-ch-user';
  const password = `fake-ch-pass-${randomUUID()}`;
  const senderId = 'CLINICSUB01';
  const receiverId = 'FAKECH01';
  const expected = Buffer.from(`Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`);
  let behaviour: FakeClearinghouseBehaviour = options.behaviour ?? 'ok';
  let calls = 0;
  let connections = 0;
  let inFlight = 0;
  let maxConcurrent = 0;
  let delayMs = 0;
  let submissions = 0;
  let controlNumber = 0;
  const received: FakeClearinghouseEnvelope[] = [];
  const batches = new Map<string, Submission>();
  const statusRequests: string[] = [];
  let retrievals = 0;
  let acknowledgements = 0;
  let honourAcks = true;
  const remittances: { fileId: string; x12: string; groupControl: string; delivered: boolean; taken: boolean }[] = [];

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const auth = Buffer.from(req.headers.authorization ?? '');
    if (auth.length !== expected.length || !timingSafeEqual(auth, expected)) {
      res.writeHead(401, { 'content-type': 'text/plain' }).end(`401: ${FAKE_CLEARINGHOUSE_ERROR_TEXT}`);
      return;
    }
    let fields: Record<string, string>;
    try {
      fields = await parseMultipart(req.headers['content-type'] ?? '', body);
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('not a CORE envelope');
      return;
    }
    const correlation = req.headers['x-correlation-id'];
    received.push({ fields, correlationId: typeof correlation === 'string' ? correlation : null });
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));

    switch (behaviour) {
      case 'timeout':
        return; // held until the client gives up or close() ends it
      case 'http-500':
        res.writeHead(500, { 'content-type': 'text/plain' }).end(FAKE_CLEARINGHOUSE_ERROR_TEXT);
        return;
      case 'garbage':
        res.writeHead(200, { 'content-type': 'multipart/form-data; boundary=x' }).end('\u0000 not multipart');
        return;
      default:
        send(res, answer(fields));
    }
  }

  function answer(fields: Record<string, string>): Record<string, string> {
    const base = (payloadType: string) => ({
      PayloadType: payloadType,
      ProcessingMode: fields.ProcessingMode ?? '',
      PayloadID: randomUUID(),
      TimeStamp: `${new Date().toISOString().slice(0, 19)}Z`,
      SenderID: fields.ReceiverID ?? '',
      ReceiverID: fields.SenderID ?? '',
      CORERuleVersion: '2.2.0',
    });
    const error = (code: string) => ({ ...base(fields.PayloadType ?? ''), ErrorCode: code, ErrorMessage: code });
    if (fields.SenderID !== senderId || fields.ReceiverID !== receiverId || fields.CORERuleVersion !== '2.2.0')
      return error('Sender');
    if (behaviour === 'refuse') return error('Receiver');
    switch (fields.PayloadType) {
      case 'X12_837_Request_005010X222A1': {
        const claim = read837(fields.Payload ?? '');
        if (!claim || fields.ProcessingMode !== 'Batch') return error('Sender');
        submissions += 1;
        batches.set(fields.PayloadID ?? '', { claim, controlNumber: ++controlNumber });
        return { ...base('X12_BatchReceiptConfirmation'), ErrorCode: 'Success', ErrorMessage: 'Batch received' };
      }
      case 'X12_999_RetrievalRequest_005010X231A1': {
        const batch = batches.get(fields.Payload ?? '');
        if (!batch || behaviour === 'no-999') return error('NoBatchResultsFile');
        if (behaviour === 'unreadable-999')
          return {
            ...base('X12_999_Response_005010X231A1'),
            ErrorCode: 'Success',
            Payload: fill(template('999-accepted'), batch).replace('AK9*A*1*1*1~', 'AK9*Q*1*1*1~'),
          };
        const name = behaviour === 'reject-999' ? '999-rejected' : '999-accepted';
        return { ...base('X12_999_Response_005010X231A1'), ErrorCode: 'Success', Payload: fill(template(name), batch) };
      }
      case 'X12_005010_Request_Batch_Results_277CA': {
        const batch = batches.get(fields.Payload ?? '');
        if (!batch || behaviour === 'no-277ca' || behaviour === 'reject-999') return error('NoBatchResultsFile');
        return {
          ...base('X12_277CA_Response_005010X214'),
          ErrorCode: 'Success',
          Payload: fill(template('277ca-accepted'), batch),
        };
      }
      case 'X12_276_Request_005010X212': {
        const request = read276(fields.Payload ?? '');
        if (!request || fields.ProcessingMode !== 'RealTime') return error('Sender');
        statusRequests.push(request.claimId);
        return {
          ...base('X12_277_Response_005010X212'),
          ErrorCode: 'Success',
          Payload: fill(template('277-pending'), { controlNumber: ++controlNumber, status: request }),
        };
      }
      case 'X12_835_Request_005010X221A1': {
        if (fields.ProcessingMode !== 'Batch') return error('Sender');
        retrievals += 1;
        const file = remittances.find((r) => !r.taken);
        if (!file) return error('NoBatchResultsFile');
        file.delivered = true;
        return {
          ...base('X12_835_Response_005010X221A1'),
          PayloadID: file.fileId,
          ErrorCode: 'Success',
          Payload: file.x12,
        };
      }
      case 'X12_999_SubmissionRequest_005010X231A1': {
        const segments = segmentsOf(fields.Payload ?? '');
        const ak1 = segments?.find((s) => s[0] === 'AK1');
        const ak9 = segments?.find((s) => s[0] === 'AK9');
        if (fields.ProcessingMode !== 'Batch' || !ak1 || !ak9) return error('Sender');
        acknowledgements += 1;
        // The earliest delivered file of that group control number that is still waiting is the one acknowledged.
        const file = remittances.find((r) => r.delivered && !r.taken && r.groupControl === ak1[2]);
        if (file && honourAcks && (ak9[1] === 'A' || ak9[1] === 'E')) file.taken = true;
        return { ...base('X12_BatchReceiptConfirmation'), ErrorCode: 'Success', ErrorMessage: 'Batch received' };
      }
      default:
        return error('Sender');
    }
  }

  function fill(text: string, context: { controlNumber: number; claim?: Read837; status?: Read276 }): string {
    const now = new Date();
    const date = now.toISOString().slice(0, 10).replaceAll('-', '');
    const values: Record<string, string> = {
      SENDER: receiverId,
      RECEIVER: senderId,
      SENDER_ISA: receiverId.padEnd(15),
      RECEIVER_ISA: senderId.padEnd(15),
      ISA_DATE: date.slice(2),
      DATE: date,
      TIME: now.toISOString().slice(11, 16).replace(':', ''),
      ISA_CONTROL: String(context.controlNumber).padStart(9, '0'),
      GS_CONTROL: String(context.controlNumber),
      ...(context.claim && {
        ACK_GROUP: context.claim.groupControlNumber,
        ACK_SET: context.claim.transactionControlNumber,
        BATCH: context.claim.batchId,
        CLAIM_ID: context.claim.claimId,
        CHARGE: context.claim.charge,
        PROVIDER_NAME: context.claim.providerName,
        NPI: context.claim.npi,
        TAX_ID: context.claim.taxId,
        LAST_NAME: context.claim.lastName,
        FIRST_NAME: context.claim.firstName,
        MEMBER_ID: context.claim.memberId,
        PAYER_CLAIM_ID: `FAKECH-${context.claim.claimId.slice(-8)}`,
        SERVICE_DATE: context.claim.serviceDate,
      }),
      ...(context.status && {
        TRACE: context.status.trace,
        CLAIM_ID: context.status.claimId,
        PAYER_NAME: context.status.payerName,
        PAYER_ID: context.status.payerId,
        RECEIVER_NAME: context.status.receiverName,
        PROVIDER_NAME: context.status.providerName,
        NPI: context.status.npi,
        LAST_NAME: context.status.lastName,
        FIRST_NAME: context.status.firstName,
        MEMBER_ID: context.status.memberId,
        CHARGE: context.status.charge,
        SERVICE_DATES: context.status.serviceDates,
      }),
    };
    return text.replace(/\{\{([A-Z_]+)\}\}/g, (_, name: string) => values[name] ?? '');
  }

  const server = createServer((req, res) => {
    calls += 1;
    inFlight += 1;
    maxConcurrent = Math.max(maxConcurrent, inFlight);
    res.on('close', () => {
      inFlight -= 1;
    });
    handle(req, res).catch(() => {
      if (!res.headersSent && !res.destroyed) res.writeHead(500).end();
    });
  });
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/core/claims`,
    username,
    password,
    senderId,
    receiverId,
    get calls() {
      return calls;
    },
    get submissions() {
      return submissions;
    },
    get connections() {
      return connections;
    },
    get maxConcurrent() {
      return maxConcurrent;
    },
    setDelayMs(next) {
      delayMs = next;
    },
    received,
    statusRequests,
    get retrievals() {
      return retrievals;
    },
    get acknowledgements() {
      return acknowledgements;
    },
    get waitingRemittances() {
      return remittances.filter((r) => !r.taken).length;
    },
    queueRemittance(x12) {
      const fileId = `era-${randomUUID()}`;
      const groupControl = segmentsOf(x12)?.find((s) => s[0] === 'GS')?.[6] ?? '';
      remittances.push({ fileId, x12, groupControl, delivered: false, taken: false });
      return fileId;
    },
    setHonourAcknowledgements(honour) {
      honourAcks = honour;
    },
    setBehaviour(next) {
      behaviour = next;
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())));
    },
  };
}

async function parseMultipart(contentType: string, body: Buffer): Promise<Record<string, string>> {
  if (!/^multipart\/form-data\s*;/i.test(contentType)) throw new Error('not multipart/form-data');
  const form = await new Request('http://fake-clearinghouse.invalid/', {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: new Uint8Array(body),
  }).formData();
  const fields: Record<string, string> = {};
  for (const [name, value] of form.entries()) if (typeof value === 'string') fields[name] = value;
  return fields;
}

// Written by hand rather than through FormData, so our parser meets bytes it did not produce.
function send(res: ServerResponse, fields: Record<string, string>): void {
  const boundary = `----FakeClearinghouse${randomUUID().replaceAll('-', '')}`;
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  res.writeHead(200, { 'content-type': `multipart/form-data; boundary=${boundary}` });
  res.end(`${parts.join('')}--${boundary}--\r\n`);
}

/** Splits an interchange by the delimiters its ISA declares. */
function segmentsOf(x12: string): string[][] | null {
  const text = x12.trimStart();
  if (!text.startsWith('ISA') || text.length < 106) return null;
  const element = text[3]!;
  const terminator = text[105]!;
  return text
    .split(terminator)
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => s.split(element));
}

type Read837 = {
  groupControlNumber: string;
  transactionControlNumber: string;
  batchId: string;
  claimId: string;
  charge: string;
  providerName: string;
  npi: string;
  taxId: string;
  lastName: string;
  firstName: string;
  memberId: string;
  serviceDate: string;
};

/** The few 837P values a clearinghouse echoes in its acknowledgments (005010X222A1). */
export function read837(x12: string): Read837 | null {
  const segments = segmentsOf(x12);
  if (!segments?.some((s) => s[0] === 'ST' && s[1] === '837')) return null;
  const find = (id: string, qualifier?: string) =>
    segments.find((s) => s[0] === id && (qualifier === undefined || s[1] === qualifier));
  const gs = find('GS');
  const st = find('ST');
  const bht = find('BHT');
  const clm = find('CLM');
  const billing = find('NM1', '85');
  const subscriber = find('NM1', 'IL');
  const patient = find('NM1', 'QC') ?? subscriber;
  if (!gs || !st || !bht || !clm || !billing || !subscriber || !patient) return null;
  return {
    groupControlNumber: gs[6] ?? '',
    transactionControlNumber: st[2] ?? '',
    batchId: bht[3] ?? '',
    claimId: clm[1] ?? '',
    charge: clm[2] ?? '',
    providerName: billing[3] ?? '',
    npi: billing[9] ?? '',
    taxId: find('REF', 'EI')?.[2] ?? '',
    lastName: patient[3] ?? '',
    firstName: patient[4] ?? '',
    memberId: subscriber[9] ?? '',
    serviceDate: find('DTP', '472')?.[3] ?? '',
  };
}

type Read276 = {
  trace: string;
  claimId: string;
  payerName: string;
  payerId: string;
  receiverName: string;
  providerName: string;
  npi: string;
  lastName: string;
  firstName: string;
  memberId: string;
  charge: string;
  serviceDates: string;
};

/** The values a payer echoes in its 277 (005010X212). */
export function read276(x12: string): Read276 | null {
  const segments = segmentsOf(x12);
  if (!segments?.some((s) => s[0] === 'ST' && s[1] === '276')) return null;
  const find = (id: string, qualifier?: string) =>
    segments.find((s) => s[0] === id && (qualifier === undefined || s[1] === qualifier));
  const payer = find('NM1', 'PR');
  const receiver = find('NM1', '41');
  const provider = find('NM1', '1P');
  const subscriber = find('NM1', 'IL');
  const trn = find('TRN', '1');
  if (!payer || !receiver || !provider || !subscriber || !trn) return null;
  const dates = find('DTP', '472')?.[3] ?? '';
  return {
    trace: trn[2] ?? '',
    claimId: find('REF', 'EJ')?.[2] ?? trn[2] ?? '',
    payerName: payer[3] ?? '',
    payerId: payer[9] ?? '',
    receiverName: receiver[3] ?? '',
    providerName: provider[3] ?? '',
    npi: provider[9] ?? '',
    lastName: subscriber[3] ?? '',
    firstName: subscriber[4] ?? '',
    memberId: subscriber[9] ?? '',
    charge: find('AMT', 'T3')?.[2] ?? '0',
    serviceDates: dates.includes('-') ? dates : `${dates}-${dates}`,
  };
}
