import type { DemoRandom } from "./demo-random";

/** Dates and timestamps of the demo data. Everything is relative to a fixed anchor date, never to the clock. */

export const DAY_MS = 86_400_000;

/** Milliseconds since the epoch of a `YYYY-MM-DD` date at midnight UTC. */
export function parseDate(date: string): number {
  return Date.parse(`${date}T00:00:00Z`);
}

/** `YYYY-MM-DD` of a UTC instant. */
export function formatDate(instant: number): string {
  return new Date(instant).toISOString().slice(0, 10);
}

/** `YYYY-MM-DD HH:MM:SS+00` of a UTC instant (whole seconds), as PostgreSQL reads a timestamptz literal. */
export function formatTimestamp(instant: number): string {
  const iso = new Date(Math.floor(instant / 1000) * 1000).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}+00`;
}

/** A random instant within the given UTC day, weighted towards business hours. */
export function timeOfDay(random: DemoRandom, dayStart: number): number {
  const hour = random.weighted<number>([
    [random.int(0, 6), 1],
    [random.int(7, 11), 4],
    [random.int(12, 17), 6],
    [random.int(18, 23), 5],
  ]);
  return dayStart + hour * 3_600_000 + random.int(0, 3_599) * 1000;
}

/** Order volume by month (January first): November/December peak, summer dip. */
const MONTH_FACTORS = [0.8, 0.7, 0.85, 0.9, 0.95, 0.85, 0.8, 0.85, 0.95, 1.05, 1.6, 1.9];
/** Yearly growth of order volume. */
const YEARLY_GROWTH = 0.35;
/** Order volume on Saturdays and Sundays relative to weekdays. */
const WEEKEND_FACTOR = 1.25;

/** Relative order volume of a day: yearly growth, November/December peak, summer dip, weekend bump. */
function orderDayWeight(dayStart: number, firstDay: number): number {
  const date = new Date(dayStart);
  const month = date.getUTCMonth();
  const monthFactor = MONTH_FACTORS[month] ?? 1;
  const years = (dayStart - firstDay) / (365 * DAY_MS);
  const growthFactor = 1 + YEARLY_GROWTH * years;
  const weekday = date.getUTCDay();
  const weekdayFactor = weekday === 0 || weekday === 6 ? WEEKEND_FACTOR : 1;
  return monthFactor * growthFactor * weekdayFactor;
}

/** Samples a day in [firstDay, lastDay] with probability proportional to `orderDayWeight` (rejection sampling). */
export function sampleOrderDay(random: DemoRandom, firstDay: number, lastDay: number): number {
  const days = Math.round((lastDay - firstDay) / DAY_MS);
  // The largest weight any day in the range can have: peak month, last year, weekend.
  const maximumWeight = Math.max(...MONTH_FACTORS) * (1 + YEARLY_GROWTH * (days / 365)) * WEEKEND_FACTOR;
  for (;;) {
    const day = firstDay + random.int(0, days) * DAY_MS;
    if (random.float() * maximumWeight < orderDayWeight(day, firstDay)) return day;
  }
}
