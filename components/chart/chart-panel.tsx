'use client';
// One dashboard panel: a chart for the eye and, always, the same numbers as a table (screen readers, and people
// who want the figures), with the panel's CSV download. The chart is decorative beside the table, so it is hidden
// from assistive technology and takes no keyboard focus (recharts' accessibility layer off).
import type { ReactNode } from 'react';

export type ChartColumn<Row> = {
  label: string;
  value: (row: Row) => ReactNode;
  /** An amount or a count: right-aligned, on one line. */
  numeric?: boolean;
  /** A code, read whole ("CO-50"): on one line, so a narrow panel does not break it at its hyphen. */
  whole?: boolean;
};

const cellClass = (column: ChartColumn<never>) => (column.numeric ? 'num' : column.whole ? 'whole' : undefined);

export function ChartPanel<Row>(props: {
  id: string;
  title: string;
  description?: ReactNode;
  chart: ReactNode;
  caption: string;
  columns: readonly ChartColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  csvHref: string;
  /** A table too wide for half the screen (the aging's payer and six amounts): the panel takes a whole row. */
  wide?: boolean;
}) {
  const headingId = `${props.id}-title`;
  return (
    <section
      className={props.wide ? 'card chart-panel wide' : 'card chart-panel'}
      aria-labelledby={headingId}
      data-testid={`panel-${props.id}`}
    >
      <div className="chart-panel-head">
        <h2 id={headingId}>{props.title}</h2>
        <a href={props.csvHref} download>
          Download CSV<span className="visually-hidden"> of {props.title.toLowerCase()}</span>
        </a>
      </div>
      {props.description ? <p className="muted">{props.description}</p> : null}
      <div className="chart-box" aria-hidden="true">
        {props.chart}
      </div>
      <table className="stack-table chart-table">
        <caption>{props.caption}</caption>
        <thead>
          <tr>
            {props.columns.map((c) => (
              <th key={c.label} scope="col" className={cellClass(c)}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.length === 0 ? (
            <tr>
              <td colSpan={props.columns.length}>Nothing in this period.</td>
            </tr>
          ) : (
            props.rows.map((row) => (
              <tr key={props.rowKey(row)}>
                {props.columns.map((c) => (
                  <td key={c.label} data-label={c.label} className={cellClass(c)}>
                    {c.value(row)}
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </section>
  );
}
