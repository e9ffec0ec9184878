import { splitWordPieces, stopWords } from "./word-pieces";
import type { WordVectors } from "./word-vectors";

/**
 * Abbreviations of schema names expanded before the word-vector lookup: the ones that occur in the SpiderUnion and
 * BirdUnion corpora (counts there in brackets) whose GloVe vector, when the package has one, means something else or
 * is rare: `fname`/`lname` (15 each), `stuid`'s `stu` (31), `num` (29), `dept` (18), `emp` (9), `dob` (4),
 * `cust` (3), `desc`, `qty`, `amt` and `addr` (common in warehouses; their GloVe rows are names or typos).
 */
export const identifierAbbreviations: ReadonlyMap<string, readonly string[]> = new Map([
  ["fname", ["first", "name"]],
  ["lname", ["last", "name"]],
  ["stu", ["student"]],
  ["num", ["number"]],
  ["dept", ["department"]],
  ["emp", ["employee"]],
  ["dob", ["birth", "date"]],
  ["cust", ["customer"]],
  ["desc", ["description"]],
  ["qty", ["quantity"]],
  ["amt", ["amount"]],
  ["addr", ["address"]],
]);

/** Options of `vectorWords`. */
export interface VectorWordOptions {
  /**
   * A word whose row is at or past this frequency rank is rare (GloVe rows are sorted by frequency): the splitter
   * first tries to read it as run-together common words (`lastname` → last, name). Default 100,000.
   */
  readonly rareRank?: number;
  /** Parts of a run-together word must rank below this. Default 50,000. */
  readonly partRank?: number;
}

/** What one piece of text became: the rows of its words in the table, and the pieces no row was found for. */
export interface VectorWordsResult {
  readonly rows: number[];
  /** For each row, the piece of the text it came from (several rows may share one: `lname` → last, name). */
  readonly pieces: string[];
  readonly unknown: string[];
}

/**
 * The word-vector rows of a text or identifier: word pieces (`_`, spaces, punctuation, camelCase, letter/digit
 * boundaries), stop words, single letters and bare numbers dropped, abbreviations expanded, and run-together words
 * the table lacks or holds only as rare words split into common ones (`driverid` → driver, id;
 * `constructorstandings` → constructor, standings). `memo` caches pieces across calls (a catalog repeats them).
 */
export function vectorWords(
  text: string,
  vectors: WordVectors,
  options: VectorWordOptions = {},
  memo?: Map<string, readonly number[] | string>,
): VectorWordsResult {
  const rows: number[] = [];
  const pieces: string[] = [];
  const unknown: string[] = [];
  for (const piece of splitWordPieces(text)) {
    if (piece.length < 2 || stopWords.has(piece) || /^[0-9]+$/.test(piece)) continue;
    let found = memo?.get(piece);
    if (found === undefined) {
      found = pieceRows(piece, vectors, options);
      memo?.set(piece, found);
    }
    if (typeof found === "string") unknown.push(found);
    else
      for (const row of found) {
        rows.push(row);
        pieces.push(piece);
      }
  }
  return { rows, pieces, unknown };
}

/** The rows of one lower-case piece, or the piece itself when no row fits it. */
function pieceRows(piece: string, vectors: WordVectors, options: VectorWordOptions): readonly number[] | string {
  const rareRank = options.rareRank ?? 100_000;
  const partRank = options.partRank ?? 50_000;
  const expansion = identifierAbbreviations.get(piece);
  if (expansion) return expansion.map((word) => vectors.rowOf(word)).filter((row) => row >= 0);
  const row = vectors.rowOf(piece);
  if (row >= 0 && row < rareRank) return [row];
  const parts = splitRunTogether(piece, vectors, partRank);
  if (parts) return parts;
  return row >= 0 ? [row] : piece;
}

/**
 * The fewest common words (each of two or more letters, ranked below `partRank`, or a known abbreviation) that spell
 * `piece` exactly, ties broken by the rarest part being the most common; undefined when none does.
 */
function splitRunTogether(piece: string, vectors: WordVectors, partRank: number): number[] | undefined {
  const partOf = (text: string): readonly number[] | undefined => {
    const expansion = identifierAbbreviations.get(text);
    if (expansion) return expansion.map((word) => vectors.rowOf(word)).filter((row) => row >= 0);
    const row = vectors.rowOf(text);
    return row >= 0 && row < partRank ? [row] : undefined;
  };
  // best[end]: the fewest parts spelling piece[0, end), and the worst (largest) rank among them.
  const best: Array<{ parts: number; worst: number; rows: number[] } | undefined> = [{ parts: 0, worst: -1, rows: [] }];
  for (let end = 2; end <= piece.length; end++) {
    for (let start = Math.max(0, end - 24); start <= end - 2; start++) {
      const before = best[start];
      if (!before) continue;
      const rows = partOf(piece.slice(start, end));
      if (!rows || rows.length === 0) continue;
      const candidate = {
        parts: before.parts + 1,
        worst: Math.max(before.worst, ...rows),
        rows: [...before.rows, ...rows],
      };
      const current = best[end];
      if (
        !current ||
        candidate.parts < current.parts ||
        (candidate.parts === current.parts && candidate.worst < current.worst)
      )
        best[end] = candidate;
    }
  }
  const whole = best[piece.length];
  return whole && whole.parts >= 2 ? whole.rows : undefined;
}
