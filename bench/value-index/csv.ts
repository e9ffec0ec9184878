/** A small RFC 4180 CSV parser (quoted fields, doubled quotes, CRLF) for the benchmark's data files. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let position = 0; position < text.length; position++) {
    const character = text[position]!;
    if (quoted) {
      if (character === '"') {
        if (text[position + 1] === '"') {
          field += '"';
          position++;
        } else quoted = false;
      } else field += character;
    } else if (character === '"') quoted = true;
    else if (character === ",") {
      row.push(field);
      field = "";
    } else if (character === "\n" || character === "\r") {
      if (character === "\r" && text[position + 1] === "\n") position++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += character;
  }
  if (field.length > 0 || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}
