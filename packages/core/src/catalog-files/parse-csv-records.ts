/**
 * RFC 4180 CSV: quoted fields with `""` escapes and embedded newlines, CRLF or LF line ends, a final line with or
 * without a newline. Blank lines are dropped. Returns the records as arrays of fields.
 */
export function parseCsvRecords(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let quoted = false;
  let fieldStarted = false;
  const endRecord = () => {
    record.push(field);
    if (record.length > 1 || record[0] !== "") records.push(record);
    record = [];
    field = "";
    fieldStarted = false;
  };
  for (let position = 0; position < text.length; position++) {
    const character = text[position]!;
    if (quoted) {
      if (character === '"') {
        if (text[position + 1] === '"') {
          field += '"';
          position++;
        } else quoted = false;
      } else field += character;
      continue;
    }
    if (character === '"' && !fieldStarted) {
      quoted = true;
      fieldStarted = true;
    } else if (character === ",") {
      record.push(field);
      field = "";
      fieldStarted = false;
    } else if (character === "\n" || character === "\r") {
      if (character === "\r" && text[position + 1] === "\n") position++;
      endRecord();
    } else {
      field += character;
      fieldStarted = true;
    }
  }
  if (field !== "" || record.length > 0) endRecord();
  return records;
}
