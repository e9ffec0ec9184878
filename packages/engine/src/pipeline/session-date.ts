import type { ReadOnlyQuery } from "../database/read-only-session";

/** The asking session's date and time zone, as the prompts carry them. */
export interface SessionDate {
  /** `current_date` in the session's time zone, `YYYY-MM-DD` whatever its `DateStyle`. */
  readonly date?: string;
  /** The session's `TimeZone` setting (e.g. `Europe/Lisbon`, `UTC`). */
  readonly timeZone?: string;
}

/**
 * Reads the session's current date and time zone inside the question's read-only scope: "last month" then means the
 * asker's last month. The date, not the time of day, so a prompt (and its cached response) stays the same all day.
 * Qualified calls: the asking role controls its search path.
 */
export async function readSessionDate(query: ReadOnlyQuery): Promise<SessionDate> {
  const result = await query(
    "SELECT pg_catalog.to_char(CURRENT_DATE, 'YYYY-MM-DD'), pg_catalog.current_setting('TimeZone')",
  );
  const [date, timeZone] = result.rows[0] ?? [];
  return {
    ...(typeof date === "string" && date !== "" ? { date } : {}),
    ...(typeof timeZone === "string" && timeZone !== "" ? { timeZone } : {}),
  };
}
