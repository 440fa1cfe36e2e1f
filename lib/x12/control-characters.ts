// Control characters in an interchange are refused, not stripped (docs/remittances.md, "Control characters"): an
// 835 is kept exactly as received, so a cleaned copy would no longer be the document that was posted, and a payer
// name carrying BEL, ESC, NUL or a bidi override (U+202E turns "AETNA" into text that reads backwards) is either a
// broken sender or an attack on whoever reads the screen or the log. Refused: C0 controls except CR and LF (the line
// breaks allowed around segment terminators), DEL, C1 controls, the Unicode format characters that reorder or hide
// text (bidi marks, embeddings, overrides and isolates; zero-width characters; a BOM past the start) and lone
// surrogates. An interchange whose own delimiters are control characters (some senders use 0x1C-0x1F) keeps them,
// NUL excepted. The check runs before the envelope is read, so a NUL in the ISA is refused as a control character
// too, not as a malformed envelope.
import type { X12Text } from './x12-text';
import { X12ReadError } from './x12-read-error';

/** The reader's refusal of a control character: a request-validation problem, not an unreadable document. */
export class X12ControlCharacterError extends X12ReadError {
  constructor(reason: string) {
    super('unreadable', reason);
    this.name = 'X12ControlCharacterError';
  }
}

function isRefused(code: number): boolean {
  if (code < 0x20) return code !== 0x0a && code !== 0x0d;
  if (code < 0x7f) return false;
  if (code <= 0x9f) return true; // DEL and C1
  return (
    code === 0x061c || // Arabic letter mark
    (code >= 0x200b && code <= 0x200f) || // zero-width space/joiners, LRM, RLM
    (code >= 0x202a && code <= 0x202e) || // embeddings and overrides (U+202E RLO)
    (code >= 0x2060 && code <= 0x2069) || // word joiner, invisible operators, isolates
    code === 0xfeff // a BOM anywhere but the start
  );
}

const hex = (code: number) => `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;

type Delimiters = { element: string; segment: string; allowed: Set<number> };

// Where the ISA's fixed-width layout puts the element separator, the repetition separator (ISA11), the component
// separator (ISA16) and the segment terminator.
const ISA_DELIMITER_OFFSETS = [3, 82, 104, 105];
/** How far into the text the ISA may start (leading blank lines or a BOM are transport noise). */
const ISA_SEARCH = 64;

/** The interchange's own delimiters, from the fixed-width ISA when there is one; NUL is never allowed. */
function delimitersOf(text: X12Text): Delimiters {
  const isa = text.indexOf('ISA');
  if (isa < 0 || isa > ISA_SEARCH || text.length < isa + 106) return { element: '*', segment: '~', allowed: new Set() };
  const codes = ISA_DELIMITER_OFFSETS.map((offset) => text.charCodeAt(isa + offset)).filter((code) => code !== 0);
  return { element: text.charAt(isa + 3), segment: text.charAt(isa + 105), allowed: new Set(codes) };
}

/** The id of the segment holding `index` (what the refusal names instead of echoing the text). */
function segmentAt(text: X12Text, index: number, delimiters: Delimiters): string {
  const start = text.lastIndexOf(delimiters.segment, index - 1) + 1;
  const head = text.slice(start, start + 8).replace(/^[\r\n]+/, '');
  const id = head.split(delimiters.element)[0] ?? '';
  return /^[A-Z0-9]{2,3}$/.test(id) ? `segment ${id}` : 'the envelope';
}

/**
 * @throws X12ControlCharacterError naming the first refused character by code point, position and segment (never
 *   the text around it). Linear in the text's length.
 */
export function assertNoControlCharacters(text: X12Text): void {
  const delimiters = delimitersOf(text);
  const { allowed } = delimiters;
  // A BOM before the ISA is transport noise, skipped by the envelope reader.
  const first = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (let i = nextSuspect(text, first); i !== -1; i = nextSuspect(text, i + 1)) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdfff) {
      const next = text.charCodeAt(i + 1);
      if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      throw new X12ControlCharacterError(
        `a lone surrogate (${hex(code)}) at character ${i + 1}, in ${segmentAt(text, i, delimiters)}: the interchange is not valid text`,
      );
    }
    if (allowed.has(code)) continue;
    throw new X12ControlCharacterError(
      `a control character (${hex(code)}) at character ${i + 1}, in ${segmentAt(text, i, delimiters)}: an 835 holds printable text only`,
    );
  }
}

// Every code unit isRefused refuses, and the surrogates (a pair is let through by the caller).
const SUSPECT =
  /[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff\ud800-\udfff]/g;

/**
 * Where the next refused code unit or surrogate is, from `from`; -1 when none. A string is searched with one
 * regular expression, which V8 runs natively: the loop over charCodeAt was a tenth of reading an 835 (bench era-read).
 */
function nextSuspect(text: X12Text, from: number): number {
  if (typeof text === 'string') {
    SUSPECT.lastIndex = from;
    return SUSPECT.exec(text)?.index ?? -1;
  }
  for (let i = from; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (isRefused(code) || (code >= 0xd800 && code <= 0xdfff)) return i;
  }
  return -1;
}
