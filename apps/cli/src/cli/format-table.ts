/** Renders rows as an aligned text table in psql's style (NULL shown empty), followed by `(n rows)`. */
export function formatTable(columns: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | null>>): string {
  const cells = rows.map((row) => columns.map((_, index) => (row[index] ?? "").replace(/\n/g, "\\n")));
  const widths = columns.map((name, index) => Math.max(name.length, ...cells.map((row) => row[index]!.length)));
  const line = (values: readonly string[]) =>
    ` ${values.map((value, index) => value.padEnd(widths[index]!)).join(" | ")}`.trimEnd();
  const separator = widths.map((width) => "-".repeat(width + 2)).join("+");
  const count = `(${rows.length} ${rows.length === 1 ? "row" : "rows"})`;
  return [line(columns), separator, ...cells.map(line), count].join("\n");
}
