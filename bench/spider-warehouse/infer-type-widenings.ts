/**
 * Spider's data comes from SQLite, whose columns accept any value: some INTEGER columns hold
 * fractions (`182.88`), integral decimals (`1.0`) or numbers beyond 32 bits, and some VARCHAR(n)
 * values are longer than n. Rather than reject those rows, the loader widens the declared type just
 * enough to hold the data, and reports every widening. Pure.
 */

export type TypeWidening = {
  readonly column: string;
  readonly from: string;
  readonly to: string;
  readonly reason: string;
};

const integerText = /^[+-]?\d+(?:\.0*)?$/;
const numericText = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const integerRanges: Record<string, bigint> = {
  smallint: 32_767n,
  integer: 2_147_483_647n,
  bigint: 9_223_372_036_854_775_807n,
};

/** `1.0` → `1`, `-3.` → `-3`; other text unchanged. Applied to integer columns before insert. */
export function normalizeIntegralDecimal(value: string): string {
  const match = /^([+-]?\d+)\.0*$/.exec(value);
  return match === null ? value : match[1]!;
}

/** The PostgreSQL type that holds every value of the column, or `undefined` when the declared type does. */
export function widenColumnType(
  declared: string,
  values: Iterable<string | null>,
): { to: string; reason: string } | undefined {
  if (declared in integerRanges) {
    let largest = 0n;
    let fractional: string | undefined;
    for (const value of values) {
      if (value === null) continue;
      const text = value.trim();
      if (integerText.test(text)) {
        const magnitude = BigInt(normalizeIntegralDecimal(text).replace(/^[+-]/, ""));
        if (magnitude > largest) largest = magnitude;
      } else if (numericText.test(text)) {
        fractional ??= text;
      } else {
        return undefined; // not a number at all: leave the type, the row is rejected and reported
      }
    }
    if (fractional !== undefined)
      return { to: "double precision", reason: `holds non-integral values such as ${fractional}` };
    if (largest > integerRanges[declared]!) {
      const to =
        largest <= integerRanges.integer! ? "integer" : largest <= integerRanges.bigint! ? "bigint" : "numeric";
      return { to, reason: `holds ${largest}, beyond ${declared}` };
    }
    return undefined;
  }
  const varchar = /^varchar\((\d+)\)$/.exec(declared);
  if (varchar !== null) {
    const limit = Number(varchar[1]);
    let longest = 0;
    for (const value of values) if (value !== null && [...value].length > longest) longest = [...value].length;
    if (longest > limit) return { to: `varchar(${longest})`, reason: `holds values of ${longest} characters` };
  }
  return undefined;
}
