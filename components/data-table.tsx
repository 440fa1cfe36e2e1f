// A list as a table, the one way staff screens draw one: columns as data, the loading and empty states in the
// screen's words, a CSV download of the same rows, and one card per row on a narrow screen (no sideways scroll
// box): each cell names its column from data-label and the header row stays for screen readers. `stack` picks
// the cards: 'narrow' below 40rem (stack-table), 'wide' below 56rem for the front desk's many columns (fd-stack),
// 'admin' the admin screens' cards with the label above the value (admin-list).
import type { ReactNode } from 'react';
import { CsvLink } from './csv-link';

const STACKS = { narrow: 'stack-table', wide: 'fd-stack', admin: 'admin-list' } as const;

export type Column<Row> = {
  header: ReactNode;
  /** The column's name on a row's card; the header when it is plain text. */
  label?: string;
  /** `index` is the row's place in `rows`, from 0 (for a list whose rows have no id of their own). */
  cell: (row: Row, index: number) => ReactNode;
  /** Money, right-aligned (billing-amount). */
  amount?: boolean;
  /** The cell that names the row (a th scope=row), such as a user's e-mail. */
  rowHeader?: boolean;
  /** Attributes of the row's cell in this column (a test id, say). */
  cellProps?: (row: Row) => Record<`data-${string}`, string>;
};

/** Attributes of a row: test ids and data the specs read. */
type RowProps = Record<`data-${string}`, string>;

export function DataTable<Row>({
  rows,
  columns,
  rowKey,
  rowProps,
  label,
  caption,
  loading = 'Loading…',
  empty,
  csv,
  stack = 'narrow',
}: {
  /** null while the list is being read. */
  rows: readonly Row[] | null;
  columns: readonly Column<Row>[];
  /** A row's React key; `index` as in Column.cell, for rows that have nothing else to tell them apart. */
  rowKey: (row: Row, index: number) => string;
  rowProps?: (row: Row) => RowProps;
  /** The table's accessible name, when no heading names it. */
  label?: string;
  /** What the rows are, for screen readers (a visually hidden caption). */
  caption?: string;
  /** Said while `rows` is null; null when the screen says it elsewhere. */
  loading?: ReactNode | null;
  /** Said instead of an empty table; null when the screen says it elsewhere (a count above the list). */
  empty: ReactNode | null;
  /** The same list as CSV (the API path the rows were read from, and what they are, for the link's name). */
  csv?: { apiPath: string; what: string };
  stack?: keyof typeof STACKS;
}) {
  if (rows === null) return loading === null ? null : <p role="status">{loading}</p>;
  return (
    <>
      {csv ? <CsvLink apiPath={csv.apiPath} what={csv.what} /> : null}
      {rows.length === 0 ? (
        empty === null ? null : (
          <p className="muted">{empty}</p>
        )
      ) : (
        <table className={STACKS[stack]} aria-label={label}>
          {caption ? <caption className="visually-hidden">{caption}</caption> : null}
          <thead>
            <tr>
              {columns.map((column, i) => (
                <th key={i} scope="col" className={column.amount ? 'billing-amount' : undefined}>
                  {column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row, index) => (
              <tr key={rowKey(row, index)} {...rowProps?.(row)}>
                {columns.map((column, i) => {
                  const Cell = column.rowHeader ? 'th' : 'td';
                  return (
                    <Cell
                      key={i}
                      scope={column.rowHeader ? 'row' : undefined}
                      data-label={column.label ?? (typeof column.header === 'string' ? column.header : undefined)}
                      className={column.amount ? 'billing-amount' : undefined}
                      {...column.cellProps?.(row)}
                    >
                      {/* One box for the value: a card lays a cell out as its label beside the value, and a value
                          of several parts (an id, then a muted line) would otherwise fall into the label's column. */}
                      <div>{column.cell(row, index)}</div>
                    </Cell>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
