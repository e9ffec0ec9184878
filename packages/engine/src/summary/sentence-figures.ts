/**
 * Whether the figures of an answer sentence are in the rows the asking role got (issue 28: a sentence said "1,500
 * customers" to a role whose row-level security showed 157). Pure: the sentence, the question and the rows in.
 */

/** A figure stated in a sentence: its value, the decimals written, and its text as written. */
export interface StatedFigure {
  readonly text: string;
  readonly value: number;
  readonly decimals: number;
  /** `%` or `percent` followed it. */
  readonly percent: boolean;
}

export interface FigureEvidence {
  /** The question asked: a figure it names ("top 5", "in 2025") may be repeated. */
  readonly question: string;
  /** The rows the role got, in PostgreSQL's text format. */
  readonly rows: ReadonlyArray<ReadonlyArray<string | null>>;
  /** True when a cap cut the rows: their count is then no figure of the answer. */
  readonly truncated: boolean;
}

const numberWords: Readonly<Record<string, number>> = {
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  hundred: 100,
};

const multipliers: Readonly<Record<string, number>> = {
  k: 1_000,
  thousand: 1_000,
  million: 1_000_000,
  m: 1_000_000,
  billion: 1_000_000_000,
  bn: 1_000_000_000,
};

// A number as people write it: 1,500 · 40617.6 · 12.5% · 1.2 million · $3k. Digits inside words (a "top5" id) are not.
const figurePattern =
  /(?<![\p{L}\p{N}_.,])(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(?![\p{L}\p{N}_]|[.,]\d)\s*(%|percent\b|k\b|thousand\b|million\b|m\b|billion\b|bn\b)?/giu;
const wordPattern = new RegExp(`\\b(${Object.keys(numberWords).join("|")})\\b`, "gi");

/** The figures a sentence states: written numbers (with their unit multiplier or percent) and number words. */
export function statedFigures(sentence: string): StatedFigure[] {
  const figures: StatedFigure[] = [];
  for (const match of sentence.matchAll(figurePattern)) {
    const whole = match[1]!.replace(/,/g, "");
    const fraction = match[2] ?? "";
    const unit = match[3]?.toLowerCase();
    const percent = unit === "%" || unit === "percent";
    const multiplier = unit && !percent ? (multipliers[unit] ?? 1) : 1;
    figures.push({
      text: match[0].trim(),
      value: Number(`${whole}${fraction ? `.${fraction}` : ""}`) * multiplier,
      decimals: multiplier === 1 ? fraction.length : Math.max(0, fraction.length - Math.log10(multiplier)),
      percent,
    });
  }
  for (const match of sentence.matchAll(wordPattern)) {
    figures.push({ text: match[0], value: numberWords[match[1]!.toLowerCase()]!, decimals: 0, percent: false });
  }
  return figures;
}

/** Every number the evidence holds: cell values, numbers inside text cells (dates), counts, sums, the question's. */
function supportingNumbers(evidence: FigureEvidence): number[] {
  const numbers = new Set<number>();
  const addAll = (text: string) => {
    for (const figure of statedFigures(text)) numbers.add(figure.value);
    for (const digits of text.match(/\d+/g) ?? []) numbers.add(Number(digits));
  };
  addAll(evidence.question);
  if (!evidence.truncated) numbers.add(evidence.rows.length);
  const columns = Math.max(0, ...evidence.rows.map((row) => row.length));
  for (let column = 0; column < columns; column++) {
    const values = evidence.rows.map((row) => row[column]).filter((value): value is string => value != null);
    let sum = 0;
    let numeric = values.length > 0;
    for (const value of values) {
      const number = Number(value);
      if (value.trim() !== "" && Number.isFinite(number)) {
        numbers.add(number);
        sum += number;
      } else {
        numeric = false;
        addAll(value);
      }
    }
    if (numeric && !evidence.truncated) numbers.add(sum);
    if (!evidence.truncated) numbers.add(new Set(values).size);
  }
  return [...numbers];
}

/** True when `figure`, as written (its decimals, or its rounding to trailing zeros), is `number` rounded. */
function writtenAs(figure: StatedFigure, number: number): boolean {
  const candidates = figure.percent ? [number, number * 100] : [number];
  const trailingZeros = figure.decimals === 0 ? (/0+$/.exec(String(Math.round(figure.value)))?.[0].length ?? 0) : 0;
  const tolerance = figure.decimals > 0 ? 0.5 * 10 ** -figure.decimals : 0.5 * 10 ** trailingZeros;
  return candidates.some((candidate) => Math.abs(Math.abs(candidate) - figure.value) <= tolerance + 1e-9);
}

/**
 * The figures of `sentence` that nothing in the evidence supports: not a value of the rows (rounded as written, a
 * share as a percent), not a number inside a cell (a date's year), not the row count, a column's sum or its count of
 * distinct values (when no cap cut the rows), and not a number of the question. Empty: every figure is supported.
 */
export function unsupportedFigures(sentence: string, evidence: FigureEvidence): StatedFigure[] {
  const figures = statedFigures(sentence);
  if (figures.length === 0) return [];
  const numbers = supportingNumbers(evidence);
  return figures.filter((figure) => !numbers.some((number) => writtenAs(figure, number)));
}
