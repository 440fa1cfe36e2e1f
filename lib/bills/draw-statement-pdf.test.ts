// The statement drawing on its own: read back with a PDF text extractor (the HTTP test covers the data it is given).
import { PDFDocument } from 'pdf-lib';
import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { drawStatementPdf, formatStatementDollars } from './draw-statement-pdf';
import type { PatientStatement } from './read-patient-statement';

const statement: PatientStatement = {
  billId: 'bill_0123',
  statementDate: '2026-11-28',
  dueDate: '2026-12-28',
  clinic: { name: 'Northside Clinic', address: { lines: ['100 North Main Street', 'Albany, NY 12207'] }, phone: null },
  patient: { patientId: 'pat_1', name: 'Zoë Łukasz 李', address: null },
  visits: [
    {
      serviceDate: '2026-11-02',
      services: ['99213-25 x1', '81002 x2'],
      chargeCents: 123_456_78,
      insurancePaidCents: 0,
      insuranceAdjustedCents: 5,
      patientShareCents: 123_456_73,
    },
  ],
  paidCents: 0,
  totalDueCents: 123_456_73,
};

const textOf = async (bytes: Uint8Array) =>
  (await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true })).text.replace(/\s+/g, ' ');

describe('drawStatementPdf', () => {
  it('writes amounts as dollars with thousands separators', () => {
    expect([0, 5, 100, 123_456_78, -2_000].map(formatStatementDollars)).toEqual([
      '$0.00',
      '$0.05',
      '$1.00',
      '$123,456.78',
      '-$20.00',
    ]);
  });

  it('prints a name the standard fonts cannot encode with "?" in place of those letters, never failing', async () => {
    const text = await textOf(await drawStatementPdf(statement));
    expect(text).toContain('Zoë ?ukasz ?');
    expect(text).toContain('(no address on file)');
    expect(text).toContain('99213-25 x1');
    expect(text).toContain('Total due $123,456.73');
    expect(text).not.toContain('Phone:');
  });

  it('continues a long list of visits on further pages', async () => {
    const visits = Array.from({ length: 40 }, (_, i) => ({
      ...statement.visits[0]!,
      serviceDate: `2026-10-${String((i % 28) + 1).padStart(2, '0')}`,
    }));
    const pdf = await PDFDocument.load(await drawStatementPdf({ ...statement, visits }));
    expect(pdf.getPageCount()).toBeGreaterThan(1);
  });
});
