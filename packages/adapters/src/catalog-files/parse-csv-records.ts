import { parseCsv } from "./parse-csv";

/**
 * RFC 4180 CSV (see {@link parseCsv}) as plain text fields: quoted fields with `""` escapes and embedded newlines,
 * CRLF or LF line ends, a final line with or without a newline. Blank lines are dropped.
 */
export function parseCsvRecords(text: string): string[][] {
  const records: string[][] = [];
  for (const { fields } of parseCsv(text)) {
    if (fields.length === 1 && fields[0]!.text === "") continue;
    records.push(fields.map((field) => field.text));
  }
  return records;
}
