// Reads a 005010X279A1 271 into its loops (2000A..2000D, 2100A..2100D, 2110, 2115, 2120). It does not decide
// what the benefits mean: read-eligibility.ts applies ELIGIBILITY.md to this structure.
import { element } from './element';
import { readInterchangeInPlace, type Delimiters, type Segment } from './read-interchange';
import { X12ReadError } from './x12-read-error';

export type HierarchicalLevel = 'A' | 'B' | 'C' | 'D';

/** 2115C/D: III (eligibility or benefit additional information). */
export type Loop2115 = { iii: Segment };
/** 2120C/D: an entity (NM1 with its N3/N4/PER/PRV) between LS and LE. */
export type Loop2120 = { segments: Segment[] };

/** 2110C/D: one EB with the segments the TR3 nests under it. */
// Most EB rows carry none of their child segments, so the lists start as one shared empty array that
// is replaced by the row's own array when its first child arrives: fewer allocations on the hot path. The lists
// of a 2000 loop start so too.
export type Loop2110 = {
  eb: Segment;
  hsd: readonly Segment[];
  ref: readonly Segment[];
  dtp: readonly Segment[];
  aaa: readonly Segment[];
  msg: readonly Segment[];
  loop2115: readonly Loop2115[];
  loop2120: readonly Loop2120[];
  /** EB03 split on the repetition separator. */
  serviceTypeCodes: string[];
};

/** 2000X with its 2100X (NM1 and the segments that follow it) and, for C/D, its 2110 benefits. */
export type Loop2000 = {
  level: HierarchicalLevel;
  hl: Segment;
  id: string;
  parentId: string;
  /** Segments of 2000X itself (AAA in 2000A, TRN in 2000C/D). */
  segments: readonly Segment[];
  nm1: Segment | null;
  /** Segments of 2100X after its NM1 (REF, N3, N4, AAA, PRV, DMG, INS, HI, DTP, MPI, PER). */
  loop2100: readonly Segment[];
  benefits: readonly Loop2110[];
};

export type Response271 = { delimiters: Delimiters; controlNumber: string; loops: Loop2000[] };

/**
 * The level HL03 codes: 20 source, 21 receiver, 22 subscriber, 23 dependent. A switch, not a lookup in an object
 * literal (HL03 is the payer's text, and `constructor` or `toString` would find a member of every object) nor in a
 * Map (hashing each freshly read HL03 cost 2 % of the read, bench x12-read).
 */
function levelOf(hl03: string): HierarchicalLevel | undefined {
  switch (hl03) {
    case '20':
      return 'A';
    case '21':
      return 'B';
    case '22':
      return 'C';
    case '23':
      return 'D';
    default:
      return undefined;
  }
}

/** Throws X12ReadError: 'ta1' or '999' for an acknowledgment in place of a 271, 'unreadable' otherwise. */
export function read271(text: string): Response271 {
  const interchange = readInterchangeInPlace(text);
  const ta1 = interchange.ta1[0];
  if (ta1) {
    const ta105 = element(ta1, 5);
    const note = ta105 ? ` (TA105 note code ${ta105})` : '';
    throw new X12ReadError('ta1', `interchange rejected with a TA1 instead of a 271${note}`);
  }
  for (const group of interchange.groups) {
    for (const transaction of group.transactions) {
      if (transaction.id === '271') {
        return {
          delimiters: interchange.delimiters,
          controlNumber: transaction.controlNumber,
          loops: readLoops(transaction.segments, interchange.delimiters),
        };
      }
    }
  }
  const ack = interchange.groups.flatMap((g) => g.transactions).find((t) => t.id === '999');
  if (ack) {
    const ak9 = ack.segments.find((s) => s.id === 'AK9');
    throw new X12ReadError('999', `999 acknowledgment${ak9 ? ` (AK9 ${element(ak9, 1)})` : ''} instead of a 271`);
  }
  throw new X12ReadError('unreadable', 'no ST*271 transaction set in the interchange');
}

function readLoops(segments: readonly Segment[], delimiters: Delimiters): Loop2000[] {
  const loops: Loop2000[] = [];
  let current: Loop2000 | null = null;
  let benefit: Loop2110 | null = null;
  let entity: Loop2120 | null = null;
  let inLs = false;

  // Segments 0 (ST) and 1 (BHT) are the header; the last is SE.
  for (let i = 1; i < segments.length - 1; i++) {
    const seg = segments[i]!;
    if (seg.id === 'BHT' && i === 1) continue;
    if (seg.id === 'HL') {
      const hl03 = element(seg, 3);
      const level = levelOf(hl03);
      if (!level) throw new X12ReadError('unreadable', `HL03 ${hl03} is not a 271 hierarchical level`);
      current = {
        level,
        hl: seg,
        id: element(seg, 1),
        parentId: element(seg, 2),
        segments: NONE,
        nm1: null,
        loop2100: NONE,
        benefits: NO_BENEFITS,
      };
      loops.push(current);
      benefit = null;
      entity = null;
      inLs = false;
      continue;
    }
    if (!current) throw new X12ReadError('unreadable', `segment ${seg.id} before the first HL`);
    if (benefit) {
      // 2120 sits between LS and LE (TR3 2110C LS/LE); everything inside belongs to one entity per NM1.
      if (inLs) {
        if (seg.id === 'LE') {
          inLs = false;
          entity = null;
        } else if (seg.id === 'NM1' || !entity) {
          entity = { segments: [seg] };
          benefit.loop2120 = append(benefit.loop2120, entity);
        } else {
          entity.segments.push(seg);
        }
        continue;
      }
      switch (seg.id) {
        case 'EB':
          benefit = newBenefit(seg, delimiters);
          current.benefits = append(current.benefits, benefit);
          continue;
        case 'HSD':
          benefit.hsd = append(benefit.hsd, seg);
          continue;
        case 'REF':
          benefit.ref = append(benefit.ref, seg);
          continue;
        case 'DTP':
          benefit.dtp = append(benefit.dtp, seg);
          continue;
        case 'AAA':
          benefit.aaa = append(benefit.aaa, seg);
          continue;
        case 'MSG':
          benefit.msg = append(benefit.msg, seg);
          continue;
        case 'III':
          benefit.loop2115 = append(benefit.loop2115, { iii: seg });
          continue;
        case 'LS':
          inLs = true;
          continue;
        default:
          throw new X12ReadError('unreadable', `segment ${seg.id} is not allowed in loop 2110${current.level}`);
      }
    }
    if (seg.id === 'EB') {
      if (current.level !== 'C' && current.level !== 'D') {
        throw new X12ReadError('unreadable', `EB outside a subscriber or dependent loop`);
      }
      benefit = newBenefit(seg, delimiters);
      current.benefits = append(current.benefits, benefit);
      continue;
    }
    if (seg.id === 'NM1' && !current.nm1) {
      current.nm1 = seg;
      continue;
    }
    if (current.nm1) current.loop2100 = append(current.loop2100, seg);
    else current.segments = append(current.segments, seg);
  }
  return loops;
}

// Shared, and never written (append replaces an empty list instead of pushing onto it; the types are readonly).
// Not frozen: a frozen array is of another elements kind, and a for-of over lists that may be either kind is not
// optimised, so the rules' loops allocated an iterator result per item (bench x12-read).
const NONE: readonly Segment[] = [];
const NO_BENEFITS: readonly Loop2110[] = [];
const NO_III: readonly Loop2115[] = [];
const NO_ENTITIES: readonly Loop2120[] = [];

function newBenefit(eb: Segment, delimiters: Delimiters): Loop2110 {
  const eb03 = element(eb, 3);
  return {
    eb,
    hsd: NONE,
    ref: NONE,
    dtp: NONE,
    aaa: NONE,
    msg: NONE,
    loop2115: NO_III,
    loop2120: NO_ENTITIES,
    serviceTypeCodes: readServiceTypeCodes(eb03, delimiters.repetition),
  };
}

/** EB03 split on the repetition separator; most EB03s hold one code, which needs no String#split. */
function readServiceTypeCodes(eb03: string, repetition: string): string[] {
  if (eb03 === '') return [];
  return eb03.includes(repetition) ? eb03.split(repetition) : [eb03];
}

/**
 * The list with one more item. An empty list is a shared one, so the first item starts a new array; a
 * non-empty list is this row's own array (still being read), so later items are pushed onto it.
 */
function append<T>(list: readonly T[], item: T): readonly T[] {
  if (list.length === 0) return [item];
  (list as T[]).push(item);
  return list;
}
