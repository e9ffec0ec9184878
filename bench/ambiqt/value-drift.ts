/**
 * Values that drifted, as a second copy of a column or table in a real warehouse drifts from the first: a number a
 * few per cent off (kept in the column's own precision), a date a few days off, a category or name that is another
 * one the column already holds. Nothing marks the drifted value: it looks like any other value of its column. Pure.
 */

/** How a column's values drift, from its PostgreSQL type (`pg_type.typcategory`) and what it holds. */
export type DriftKind = "integer" | "decimal" | "date" | "timestamp" | "boolean" | "text";

/** The drift kind of a PostgreSQL type: `format_type` text such as `integer`, `numeric(10,2)`, `date`. */
export function driftKindOf(type: string): DriftKind {
  const name = type.toLowerCase();
  if (/^(smallint|integer|bigint)\b/.test(name)) return "integer";
  if (/^(numeric|decimal|real|double precision)\b/.test(name)) return "decimal";
  if (name === "date") return "date";
  if (name.startsWith("timestamp")) return "timestamp";
  if (name === "boolean") return "boolean";
  return "text";
}

const numberText = /^-?\d+(\.\d+)?$/;
const dateText = /^(\d{4})-(\d{2})-(\d{2})([ T].*)?$/;

/** Decimal places of a number as written (`12.50` → 2). */
function decimalsOf(value: string): number {
  return value.includes(".") ? value.length - value.indexOf(".") - 1 : 0;
}

/** `value` moved by 2–15 % (at least one unit of its last place), up or down, never across zero. */
function driftNumber(value: string, decimals: number, random: () => number): string {
  const number = Number(value);
  const unit = 10 ** -decimals;
  const step = Math.max(unit, Math.abs(number) * (0.02 + 0.13 * random()));
  const down = random() < 0.5 && number - step >= 0 === number >= 0;
  const moved = Math.round((number + (down ? -step : step)) / unit) * unit;
  const text = moved.toFixed(decimals);
  return text === Number(value).toFixed(decimals) ? (number + unit).toFixed(decimals) : text;
}

/** A `YYYY-MM-DD…` value moved by 1–30 days, its time of day and format kept. */
function driftDate(value: string, random: () => number): string | undefined {
  const match = dateText.exec(value);
  if (!match) return undefined;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  if (Number.isNaN(date.getTime())) return undefined;
  const days = (1 + Math.floor(random() * 30)) * (random() < 0.5 ? -1 : 1);
  date.setUTCDate(date.getUTCDate() + days);
  return `${date.toISOString().slice(0, 10)}${match[4] ?? ""}`;
}

/** Another value the column holds, chosen at random; undefined when it holds no other. */
function anotherValue(value: string, values: readonly string[], random: () => number): string | undefined {
  const others = [...new Set(values)].filter((other) => other !== value).sort();
  return others.length === 0 ? undefined : others[Math.floor(random() * others.length)];
}

/**
 * Whether a column is categorical: few distinct values for its rows (a type code, a flag, a country), so a drifted
 * value must be one of them rather than a new number.
 */
export function isCategorical(values: readonly string[]): boolean {
  const distinct = new Set(values).size;
  return distinct <= Math.max(2, Math.min(6, Math.floor(values.length / 3)));
}

export interface DriftOptions {
  /** The column's drift kind (`driftKindOf` its type). */
  readonly kind: DriftKind;
  /** Every non-NULL value of the column (text format), for categories and for other values to take. */
  readonly values: readonly string[];
  /** Take another value of the column whatever the kind (key columns: the drifted value must exist). Default false. */
  readonly existingValuesOnly?: boolean;
  readonly random: () => number;
}

/**
 * The drifted form of one value (PostgreSQL text format in, text format out), or undefined when it cannot drift (a
 * text column holding one value). Categorical columns and key columns take another value they hold; numbers move by
 * a few per cent in their own precision (text that is a number too); dates and timestamps move by days (text that is
 * a date too); booleans flip.
 */
export function driftValue(value: string, options: DriftOptions): string | undefined {
  const { kind, values, random } = options;
  if (options.existingValuesOnly === true || isCategorical(values)) return anotherValue(value, values, random);
  if (kind === "boolean") return value === "t" ? "f" : "t";
  if (kind === "date" || kind === "timestamp") return driftDate(value, random);
  if ((kind === "integer" || kind === "decimal" || kind === "text") && numberText.test(value)) {
    const decimals =
      kind === "integer" ? 0 : Math.max(0, ...values.filter((other) => numberText.test(other)).map(decimalsOf));
    return driftNumber(value, decimals, random);
  }
  if (kind === "text" && dateText.test(value)) return driftDate(value, random) ?? anotherValue(value, values, random);
  return anotherValue(value, values, random);
}

/** `count` distinct indexes below `length`, chosen at random (all of them when `count ≥ length`). */
export function chooseIndexes(length: number, count: number, random: () => number): number[] {
  const indexes = Array.from({ length }, (_, index) => index);
  for (let index = indexes.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [indexes[index], indexes[other]] = [indexes[other]!, indexes[index]!];
  }
  return indexes.slice(0, Math.min(length, count)).sort((left, right) => left - right);
}
