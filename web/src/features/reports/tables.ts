/**
 * A report's answer as tables: every list of records in it becomes a table whose first text
 * field labels the rows and whose numbers (nested ones too, as "field: name") are the columns.
 * The charts are drawn from the same tables, so a chart never shows a number its table lacks.
 */

export interface ReportTable {
  /** Where in the answer it comes from (`days`, `throughput`, …). */
  path: string;
  labelColumn: string;
  columns: string[];
  rows: Array<{ label: string; values: Array<number | null> }>;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isRecord = (v: Json | undefined): v is { [key: string]: Json } =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** `remaining_estimate` → "Remaining estimate". */
export const title = (name: string) => {
  const words = name.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** The numeric leaves of one record: `{a: 1, b: {x: 2}}` → a, "b: x". */
function numbers(record: { [key: string]: Json }, prefix = ''): Array<[string, number | null]> {
  const out: Array<[string, number | null]> = [];
  for (const [key, value] of Object.entries(record)) {
    const name = prefix ? `${prefix}: ${key}` : key;
    // An id names a row; it is not a figure.
    if (key === 'id') continue;
    if (typeof value === 'number') out.push([name, value]);
    else if (isRecord(value)) out.push(...numbers(value, prefix ? name : key));
  }
  return out;
}

function tableOf(path: string, items: Array<{ [key: string]: Json }>): ReportTable | null {
  const first = items[0];
  if (!first) return null;
  const labelColumn = Object.keys(first).find((k) => typeof first[k] === 'string') ?? '';
  const columns: string[] = [];
  const rows = items.map((item) => {
    const found = new Map(numbers(item));
    for (const name of found.keys()) if (!columns.includes(name)) columns.push(name);
    return { label: labelColumn ? String(item[labelColumn]) : '', found };
  });
  if (!columns.length) return null;
  // Columns all from one nested record (`counts: To Do`, `counts: Done`) are named by their own names.
  const prefix = /^([^:]+): /.exec(columns[0]!)?.[0];
  const named =
    prefix && columns.every((c) => c.startsWith(prefix)) ? columns.map((c) => c.slice(prefix.length)) : columns;
  return {
    path,
    labelColumn,
    columns: named,
    rows: rows.map((r) => ({ label: r.label, values: columns.map((c) => r.found.get(c) ?? null) })),
  };
}

/** Every table in a report's answer, in the order the answer lists them. */
export function tablesOf(answer: unknown, path = ''): ReportTable[] {
  const value = answer as Json;
  if (Array.isArray(value)) {
    const records = value.filter(isRecord);
    const table = records.length === value.length ? tableOf(path, records) : null;
    return table ? [table] : [];
  }
  if (!isRecord(value)) return [];
  return Object.entries(value).flatMap(([key, child]) => tablesOf(child, path ? `${path}.${key}` : key));
}

/** The figures of an answer that stand alone (`total: 12`, `p85: 3.5`), for the summary line. */
export function summaryOf(answer: unknown): Array<[string, number | string]> {
  if (!isRecord(answer as Json)) return [];
  return Object.entries(answer as { [key: string]: Json }).filter(
    (e): e is [string, number | string] => typeof e[1] === 'number' || (typeof e[1] === 'string' && e[1].length <= 40),
  );
}

const cell = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** The table as CSV, with its headings. */
export function csvOf(table: ReportTable): string {
  const head = [table.labelColumn || 'row', ...table.columns].map(cell).join(',');
  const lines = table.rows.map((r) => [cell(r.label), ...r.values.map((v) => (v === null ? '' : String(v)))].join(','));
  return [head, ...lines].join('\r\n') + '\r\n';
}
