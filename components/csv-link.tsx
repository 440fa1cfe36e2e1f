// "Download CSV" for a list: the same API path as the screen's read (so the same filters) with format=csv.
export function csvHrefOf(apiPath: string): string {
  return `${apiPath}${apiPath.includes('?') ? '&' : '?'}format=csv`;
}

export function CsvLink({ apiPath, what }: { apiPath: string; what: string }) {
  return (
    <a href={csvHrefOf(apiPath)} download className="csv-link">
      Download CSV<span className="visually-hidden"> of {what}</span>
    </a>
  );
}
