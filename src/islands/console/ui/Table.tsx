// The console's one data table: a scrolling frame, a header row of column labels and one row per
// item. With `stack` (the default) each row becomes a card below 768 px, every cell headed by its
// column's label (data-label, console.css). Loading and errors stay with the caller (LoadView,
// ListPage); the table shows its `empty` text when there are no rows.
import type { ReactNode } from 'react';

export interface Column<T> {
  /** the header text; also each cell's data-label, which stacked rows show */
  label: string;
  cell: (row: T, index: number) => ReactNode;
  /** the class of this column's cells ('sw-actions' for a column of buttons) */
  className?: string;
  /** the cell heads its row (<th scope="row">), as a record type heads its values */
  rowHeader?: boolean;
  /** header content other than the label (a sort button); the label still names the cells */
  head?: ReactNode;
  /** aria-sort of the header while the table is sorted by this column */
  sort?: 'ascending' | 'descending';
}

/** A row's own attributes: a class (a failed request's tint) or a test id. */
export interface RowProps {
  className?: string;
  'data-testid'?: string;
  'data-monitor'?: string;
  /** the row shown in detail elsewhere on the screen */
  'aria-current'?: 'true';
}

export interface TableProps<T> {
  /** false, null or undefined entries are left out: a column only some roles see */
  columns: readonly (Column<T> | false | null | undefined)[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  rowProps?: (row: T) => RowProps;
  /** one card per row below 768 px (default true) */
  stack?: boolean;
  /** tighter cells for wide tables */
  compact?: boolean;
  /** more classes of the <table> */
  className?: string;
  'aria-label'?: string;
  'aria-labelledby'?: string;
  testId?: string;
  /** names the scrolling frame and makes it focusable, so a keyboard can scroll a wide table */
  scrollLabel?: string;
  wrapClassName?: string;
  wrapTestId?: string;
  /** shown instead of the table when there are no rows */
  empty?: string;
  /** read by screen readers only: names the table where no heading does */
  caption?: ReactNode;
  /** a footer row (totals) */
  foot?: ReactNode;
}

export function Table<T>(p: TableProps<T>) {
  const columns = p.columns.filter((c): c is Column<T> => !!c);
  if (p.empty !== undefined && p.rows.length === 0) return <p className="sw-empty">{p.empty}</p>;
  const classes = ['sw-table', p.stack !== false && 'sw-table-stack', p.compact && 'sw-table-compact', p.className]
    .filter(Boolean)
    .join(' ');
  const table = (
    <table className={classes} aria-label={p['aria-label']} aria-labelledby={p['aria-labelledby']} data-testid={p.testId}>
      {p.caption && <caption className="sw-visually-hidden">{p.caption}</caption>}
      <thead>
        <tr>
          {columns.map((c) => (
            <th scope="col" key={c.label} aria-sort={c.sort}>
              {c.head ?? c.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {p.rows.map((row, i) => (
          <tr key={p.rowKey(row)} {...p.rowProps?.(row)}>
            {columns.map((c) =>
              c.rowHeader ? (
                <th scope="row" key={c.label} data-label={c.label} className={c.className}>
                  {c.cell(row, i)}
                </th>
              ) : (
                <td key={c.label} data-label={c.label} className={c.className}>
                  {c.cell(row, i)}
                </td>
              ),
            )}
          </tr>
        ))}
      </tbody>
      {p.foot && <tfoot>{p.foot}</tfoot>}
    </table>
  );
  const wrapClass = p.wrapClassName ? `sw-table-wrap ${p.wrapClassName}` : 'sw-table-wrap';
  return p.scrollLabel ? (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to scroll by keyboard
    <section className={wrapClass} tabIndex={0} aria-label={p.scrollLabel} data-testid={p.wrapTestId}>
      {table}
    </section>
  ) : (
    <div className={wrapClass} data-testid={p.wrapTestId}>
      {table}
    </div>
  );
}

/** A sortable column's header: its label as a button, with an arrow while the table is sorted by it. */
export function SortButton(p: { label: string; active: boolean; order: 'asc' | 'desc'; onClick: () => void }) {
  return (
    <button type="button" className="sw-mon-sort" onClick={p.onClick}>
      {p.label}
      <span aria-hidden="true">{p.active ? (p.order === 'asc' ? ' ▲' : ' ▼') : ''}</span>
    </button>
  );
}

/** A column's aria-sort: only the column the table is sorted by has one. */
export function sortOf(active: boolean, order: 'asc' | 'desc'): Column<unknown>['sort'] {
  return active ? (order === 'asc' ? 'ascending' : 'descending') : undefined;
}
