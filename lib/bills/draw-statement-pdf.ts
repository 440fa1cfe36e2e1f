// Draws a patient statement as a one-page US Letter PDF with pdf-lib (pure JavaScript, no native binary), laid out
// for a window envelope: the clinic top left, the patient's mailing block below it. Pure: the caller gathers the
// data (read-patient-statement.ts) and sends the bytes. Long visit lists continue on further pages.
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { formatCentsAsDecimal } from '../money/cents';
import type { PatientStatement } from './read-patient-statement';

const PAGE = { width: 612, height: 792, margin: 54 } as const;
const GREY = rgb(0.35, 0.35, 0.35);

/** "$1,234.56": the amounts a patient reads. */
export function formatStatementDollars(amountCents: number): string {
  const [whole, fraction] = formatCentsAsDecimal(Math.abs(amountCents)).split('.') as [string, string];
  return `${amountCents < 0 ? '-' : ''}$${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${fraction}`;
}

/** "(518) 555-0100" for 10 digits; anything else as stored. */
function formatPhone(phone: string): string {
  return /^\d{10}$/.test(phone) ? `(${phone.slice(0, 3)}) ${phone.slice(3, 6)}-${phone.slice(6)}` : phone;
}

/** "2026-11-28" → "11/28/2026", as US statements write dates. */
function formatDate(date: string): string {
  const [year, month, day] = date.split('-');
  return `${month}/${day}/${year}`;
}

// The standard fonts encode WinAnsi only: any other character (a name in another script) prints as "?" rather
// than failing the whole statement.
const printable = (text: string) => text.replace(/[^\x20-\x7E\xA0-\xFF]/g, '?');

// Columns of the visits table: x of each column's left edge (amounts are right-aligned to the next edge).
const COLUMNS = [
  { title: 'Date', x: 54, right: false },
  { title: 'Services', x: 118, right: false },
  { title: 'Charged', x: 250, right: true },
  { title: 'Insurance paid', x: 320, right: true },
  { title: 'Insurance adjusted', x: 400, right: true },
  { title: 'Your share', x: 490, right: true },
] as const;
const TABLE_RIGHT = 558;

export async function drawStatementPdf(statement: PatientStatement): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Statement ${statement.billId}`);
  pdf.setAuthor(printable(statement.clinic.name));
  pdf.setSubject('Patient statement');
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);

  let page = pdf.addPage([PAGE.width, PAGE.height]);
  let y = PAGE.height - PAGE.margin;
  const text = (value: string, x: number, options: { size?: number; font?: PDFFont; grey?: boolean } = {}) =>
    page.drawText(printable(value), {
      x,
      y,
      size: options.size ?? 10,
      font: options.font ?? regular,
      color: options.grey ? GREY : rgb(0, 0, 0),
    });
  const rightText = (value: string, right: number, font: PDFFont = regular, size = 10) =>
    page.drawText(printable(value), { x: right - font.widthOfTextAtSize(printable(value), size), y, size, font });
  const rule = (on: PDFPage) =>
    on.drawLine({ start: { x: PAGE.margin, y: y + 12 }, end: { x: TABLE_RIGHT, y: y + 12 }, thickness: 0.5 });

  // The clinic, and the statement's own facts on the right.
  const { clinic, patient } = statement;
  text(clinic.name, PAGE.margin, { size: 14, font: bold });
  rightText('PATIENT STATEMENT', TABLE_RIGHT, bold, 14);
  y -= 16;
  const facts = [
    `Statement date: ${formatDate(statement.statementDate)}`,
    `Bill: ${statement.billId}`,
    `Due date: ${formatDate(statement.dueDate)}`,
  ];
  const clinicLines = [
    ...(clinic.address?.lines ?? []),
    ...(clinic.phone ? [`Phone: ${formatPhone(clinic.phone)}`] : []),
  ];
  for (let i = 0; i < Math.max(facts.length, clinicLines.length); i++) {
    if (clinicLines[i]) text(clinicLines[i]!, PAGE.margin);
    if (facts[i]) rightText(facts[i]!, TABLE_RIGHT);
    y -= 13;
  }

  // The mailing block.
  y -= 30;
  text(patient.name, PAGE.margin + 18, { font: bold, size: 11 });
  y -= 14;
  for (const line of patient.address?.lines ?? ['(no address on file)']) {
    text(line, PAGE.margin + 18, { size: 11 });
    y -= 14;
  }

  // The visits.
  y -= 30;
  const heading = () => {
    for (const [i, column] of COLUMNS.entries()) {
      if (column.right) rightText(column.title, COLUMNS[i + 1]?.x ? COLUMNS[i + 1]!.x - 8 : TABLE_RIGHT, bold, 9);
      else text(column.title, column.x, { font: bold, size: 9 });
    }
    y -= 16;
    rule(page);
  };
  heading();
  for (const visit of statement.visits) {
    const amounts = [
      visit.chargeCents,
      visit.insurancePaidCents,
      visit.insuranceAdjustedCents,
      visit.patientShareCents,
    ];
    const services = visit.services.length ? visit.services : ['Visit'];
    for (const [row, service] of services.entries()) {
      if (y < PAGE.margin + 160) {
        page = pdf.addPage([PAGE.width, PAGE.height]);
        y = PAGE.height - PAGE.margin;
        heading();
      }
      if (row === 0) {
        text(formatDate(visit.serviceDate), COLUMNS[0].x);
        amounts.forEach((cents, i) => {
          const next = COLUMNS[i + 3];
          rightText(formatStatementDollars(cents), next ? next.x - 8 : TABLE_RIGHT);
        });
      }
      text(service, COLUMNS[1].x);
      y -= 14;
    }
    y -= 4;
  }

  // Totals.
  rule(page);
  y -= 8;
  if (statement.paidCents > 0) {
    rightText('Paid so far', COLUMNS[5].x - 8);
    rightText(`-${formatStatementDollars(statement.paidCents)}`, TABLE_RIGHT);
    y -= 16;
  }
  rightText('Total due', COLUMNS[5].x - 8, bold, 12);
  rightText(formatStatementDollars(statement.totalDueCents), TABLE_RIGHT, bold, 12);
  y -= 16;
  rightText(`Please pay by ${formatDate(statement.dueDate)}`, TABLE_RIGHT);

  // How to pay.
  y -= 36;
  text('How to pay', PAGE.margin, { font: bold, size: 11 });
  y -= 15;
  const howToPay = [
    clinic.phone
      ? `By phone: call ${formatPhone(clinic.phone)} to pay by card. Have your bill number ready: ${statement.billId}.`
      : `By card at the front desk. Have your bill number ready: ${statement.billId}.`,
    `By mail: send a check payable to ${clinic.name}, with your bill number on it, to:`,
    ...(clinic.address?.lines.map((line) => `    ${line}`) ?? []),
    'Questions about this statement or your insurance? Call us: we can set up a payment plan.',
  ];
  for (const line of howToPay) {
    text(line, PAGE.margin, { size: 9.5, grey: line.startsWith('Questions') });
    y -= 13;
  }
  return pdf.save();
}
