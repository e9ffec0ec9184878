/** One CSV field: its text and whether it was quoted (an unquoted `NULL` means SQL NULL, a quoted one is text). */
export type CsvField = { readonly text: string; readonly quoted: boolean };

/** One CSV record with the 1-based line number where it starts (for error reports). */
export type CsvRecord = { readonly line: number; readonly fields: CsvField[] };

/**
 * Parses RFC 4180 CSV: comma separated, `"` quoting with `""` escapes, CRLF or LF record ends,
 * line breaks allowed inside quoted fields, a leading BOM skipped. A final line break does not produce an empty record;
 * a blank line is a record with one empty field. Lenient: text after a closing quote is kept verbatim, a quote inside a
 * bare field is a plain character. Pure; the whole text is parsed at once (the Spider files are at most ~3 MB).
 */
export function parseCsv(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let fields: CsvField[] = [];
  let line = 1;
  let recordLine = 1;
  let position = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const length = text.length;
  let atFieldStart = true;

  const endRecord = () => {
    records.push({ line: recordLine, fields });
    fields = [];
    recordLine = line;
  };

  while (position < length) {
    // One field per iteration: quoted or bare.
    let value: string;
    let quoted = false;
    if (text[position] === '"') {
      quoted = true;
      position++;
      let collected = "";
      for (;;) {
        const closing = text.indexOf('"', position);
        if (closing === -1) {
          collected += text.slice(position);
          position = length;
          break;
        }
        collected += text.slice(position, closing);
        position = closing + 1;
        if (text[position] === '"') {
          collected += '"';
          position++;
          continue;
        }
        break;
      }
      for (const character of collected) if (character === "\n") line++;
      // Anything between the closing quote and the next separator is kept verbatim (lenient).
      const rest = nextSeparator(text, position);
      value = collected + text.slice(position, rest);
      position = rest;
    } else {
      const end = nextSeparator(text, position);
      value = text.slice(position, end);
      position = end;
    }
    fields.push({ text: value, quoted });
    atFieldStart = false;
    const separator = text[position];
    if (separator === ",") {
      position++;
      atFieldStart = true;
      if (position === length) fields.push({ text: "", quoted: false });
      continue;
    }
    // Record end: \r\n, \n, lone \r, or end of text.
    if (separator === "\r") position++;
    if (text[position] === "\n") position++;
    line++;
    endRecord();
    atFieldStart = true;
  }
  if (!atFieldStart || fields.length > 0) endRecord();
  return records;
}

function nextSeparator(text: string, from: number): number {
  for (let position = from; position < text.length; position++) {
    const code = text.charCodeAt(position);
    if (code === 44 /* , */ || code === 10 /* \n */ || code === 13 /* \r */) return position;
  }
  return text.length;
}
