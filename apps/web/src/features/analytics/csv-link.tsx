/** A table's CSV export: the API answers the same query with format=csv as an attachment. */
export function CsvLink({ href, what }: { href: string; what: string }) {
  return (
    <a
      className="button button--secondary button--small csv-link"
      href={href}
      download
      aria-label={`Export CSV of ${what}`}
    >
      Export CSV
    </a>
  );
}
