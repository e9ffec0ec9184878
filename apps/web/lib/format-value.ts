import { type ColumnRole, columnRole, isNumericType } from "./chart-plan";

/** PostgreSQL type OIDs: date, timestamp, timestamptz. */
const dateTypeId = 1082;
const timestampTypeIds = new Set([1114, 1184]);

const numberFormat = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });

/**
 * A value as the table shows it: measures with thousands separators and at most two decimals; dates as `2025-03-01`;
 * timestamps as `2025-03-01 14:05` (seconds and time zone only when not zero); identifiers, years and text as
 * PostgreSQL wrote them. NULL stays null (the table shows it distinctly). The exact text is kept for the title.
 */
export function formatValue(
  value: string | null,
  field: { readonly name: string; readonly dataTypeId: number },
  role: ColumnRole = columnRole(field),
): string | null {
  if (value === null) return null;
  if (role === "measure" && isNumericType(field.dataTypeId)) {
    const parsed = Number(value);
    // Beyond 2^53 a double would change the digits: show those as PostgreSQL wrote them.
    if (!Number.isFinite(parsed) || Math.abs(parsed) > Number.MAX_SAFE_INTEGER) return value;
    return numberFormat.format(parsed);
  }
  if (field.dataTypeId === dateTypeId) return value;
  if (timestampTypeIds.has(field.dataTypeId)) {
    const match = /^(\d{4,}-\d{2}-\d{2})[ T](\d{2}:\d{2})(:\d{2}(?:\.\d+)?)?([+-]\d{2}(?::?\d{2})?)?$/.exec(value);
    if (!match) return value;
    const [, day, minutes, seconds, zone] = match;
    const exactSeconds = seconds && !/^:00(\.0+)?$/.test(seconds) ? seconds : "";
    return `${day} ${minutes}${exactSeconds}${zone && zone !== "+00" ? ` ${zone}` : ""}`;
  }
  return value;
}
