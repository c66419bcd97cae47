import type { ReactNode } from 'react';

interface ResponsiveTableProps {
  /** Id of the heading that names the scroll region (and the table, unless it has a caption). */
  labelledBy: string;
  /** A caption naming the table for assistive technology (hidden from sight). */
  caption?: ReactNode;
  /** Right-aligned numbers in the data cells. */
  isNumeric?: boolean;
  /** Extra classes of the region around the table. */
  regionClassName?: string;
  /** Extra classes of the table. */
  className?: string;
  children: ReactNode;
}

/**
 * A data table that stays readable on a phone. Wider than 640 px it is a table (scrolling
 * sideways inside its region if it must); narrower, each row becomes a block: the row header
 * on top, then one line per cell with its column's name before the value (the `label` of
 * `Cell`, drawn by styles.css), so no column is cut off. The header row stays in the page for
 * assistive technology, hidden from sight.
 */
export function ResponsiveTable({
  labelledBy,
  caption,
  isNumeric = false,
  regionClassName,
  className,
  children,
}: ResponsiveTableProps) {
  const tableClasses = ['data-table', 'data-table--stack'];
  if (isNumeric) {
    tableClasses.push('data-table--numeric');
  }
  if (className) {
    tableClasses.push(className);
  }
  return (
    <div
      className={regionClassName ? `table-scroll ${regionClassName}` : 'table-scroll'}
      role="region"
      aria-labelledby={labelledBy}
      tabIndex={0}
    >
      <table
        className={tableClasses.join(' ')}
        {...(caption === undefined ? { 'aria-labelledby': labelledBy } : {})}
      >
        {caption === undefined ? null : <caption className="visually-hidden">{caption}</caption>}
        {children}
      </table>
    </div>
  );
}

/** A data cell of a ResponsiveTable; `label` (its column's name) is shown beside it on a phone. */
export function Cell({
  label,
  className,
  children,
}: {
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <td data-label={label} className={className}>
      {children}
    </td>
  );
}
