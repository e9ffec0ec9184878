/** Where two psql outputs part, for a report a reader can act on. */
export interface OutputDifference {
  /** 1-based line of the first difference. */
  readonly line: number;
  /** That line in each output (undefined past its end), cut to 200 characters. */
  readonly direct: string | undefined;
  readonly proxied: string | undefined;
}

const SHOWN = 200;

/**
 * Compares two outputs byte for byte; undefined when they are identical, else the first line where they differ.
 * `\r` is kept (a carriage return is part of the line), lines are split at `\n` only.
 */
export function compareOutputs(direct: Buffer, proxied: Buffer): OutputDifference | undefined {
  if (direct.equals(proxied)) return undefined;
  const directLines = direct.toString("utf8").split("\n");
  const proxiedLines = proxied.toString("utf8").split("\n");
  const count = Math.max(directLines.length, proxiedLines.length);
  for (let index = 0; index < count; index++) {
    if (directLines[index] !== proxiedLines[index]) {
      return { line: index + 1, direct: cut(directLines[index]), proxied: cut(proxiedLines[index]) };
    }
  }
  // Same text, different bytes (invalid UTF-8 decoded alike): report the first differing byte's line.
  const offset = firstDifferentByte(direct, proxied);
  const line = direct.subarray(0, offset).toString("latin1").split("\n").length;
  return { line, direct: cut(directLines[line - 1]), proxied: cut(proxiedLines[line - 1]) };
}

/** Replaces every occurrence of each name in `names` by `replacement` (same-length names keep psql's column widths). */
export function normalizeNames(output: Buffer, names: readonly string[], replacement: string): Buffer {
  let text = output.toString("latin1");
  for (const name of names) text = text.split(name).join(replacement);
  return Buffer.from(text, "latin1");
}

function firstDifferentByte(left: Buffer, right: Buffer): number {
  const length = Math.min(left.length, right.length);
  for (let index = 0; index < length; index++) if (left[index] !== right[index]) return index;
  return length;
}

function cut(line: string | undefined): string | undefined {
  if (line === undefined) return undefined;
  return line.length > SHOWN ? `${line.slice(0, SHOWN)}…` : line;
}
