import { type ScanToken, scanSync } from "libpg-query";

/** A named way to make a plausible wrong candidate from a correct query. */
export interface Perturbation {
  readonly name: string;
  /** The changed SQL, or undefined when the perturbation does not apply. Needs the parser loaded (`loadSqlParser`). */
  readonly apply: (sql: string) => string | undefined;
}

/** The statement as bytes and its tokens (libpg-query reports byte offsets). */
function tokensOf(sql: string): { bytes: Buffer; tokens: ScanToken[] } | undefined {
  try {
    return { bytes: Buffer.from(sql, "utf8"), tokens: scanSync(sql).tokens };
  } catch {
    return undefined;
  }
}

function splice(bytes: Buffer, start: number, end: number, replacement: string): string {
  return Buffer.concat([bytes.subarray(0, start), Buffer.from(replacement, "utf8"), bytes.subarray(end)]).toString(
    "utf8",
  );
}

/** Parenthesis depth before each token. */
function depths(tokens: readonly ScanToken[]): number[] {
  let depth = 0;
  return tokens.map((token) => {
    const before = depth;
    if (token.text === "(") depth++;
    if (token.text === ")") depth--;
    return before;
  });
}

/** Top-level `LIMIT n` becomes `LIMIT n + 1`; a query without a top-level LIMIT gets `LIMIT 1`. */
const changeLimit: Perturbation = {
  name: "limit",
  apply(sql) {
    const scanned = tokensOf(sql);
    if (!scanned) return undefined;
    const level = depths(scanned.tokens);
    const index = scanned.tokens.findIndex(
      (token, position) => token.text.toUpperCase() === "LIMIT" && level[position] === 0,
    );
    const number = scanned.tokens[index + 1];
    if (index === -1) return `${sql.trim().replace(/(\s*;)+$/, "")} LIMIT 1`;
    if (number?.tokenName !== "ICONST") return undefined;
    return splice(scanned.bytes, number.start, number.end, String(Number(number.text) + 1));
  },
};

const clauseEnds = new Set([
  "GROUP",
  "ORDER",
  "LIMIT",
  "HAVING",
  "UNION",
  "INTERSECT",
  "EXCEPT",
  "WINDOW",
  "OFFSET",
  "FETCH",
]);

/** The first WHERE clause (at any depth) is removed, up to the next clause of its query. */
const dropWhere: Perturbation = {
  name: "drop-where",
  apply(sql) {
    const scanned = tokensOf(sql);
    if (!scanned) return undefined;
    const level = depths(scanned.tokens);
    const index = scanned.tokens.findIndex((token) => token.text.toUpperCase() === "WHERE");
    if (index === -1) return undefined;
    const depth = level[index]!;
    let end = scanned.bytes.length;
    for (let position = index + 1; position < scanned.tokens.length; position++) {
      const token = scanned.tokens[position]!;
      const closes = token.text === ")" && level[position] === depth;
      const clause = level[position] === depth && clauseEnds.has(token.text.toUpperCase());
      if (closes || clause || token.text === ";") {
        end = token.start;
        break;
      }
    }
    return splice(scanned.bytes, scanned.tokens[index]!.start, end, " ");
  },
};

const aggregateSwaps: Record<string, string> = { max: "min", min: "max", sum: "avg", avg: "sum" };

/** The first aggregate call changes: max↔min, sum↔avg, `count(x)` → `count(DISTINCT x)` (`count(*)` is left alone). */
const swapAggregate: Perturbation = {
  name: "swap-aggregate",
  apply(sql) {
    const scanned = tokensOf(sql);
    if (!scanned) return undefined;
    const { tokens } = scanned;
    for (let index = 0; index + 2 < tokens.length; index++) {
      const name = tokens[index]!.text.toLowerCase();
      if (tokens[index + 1]!.text !== "(") continue;
      const swapped = aggregateSwaps[name];
      if (swapped) return splice(scanned.bytes, tokens[index]!.start, tokens[index]!.end, swapped);
      const argument = tokens[index + 2]!.text.toUpperCase();
      if (name === "count" && argument !== "*" && argument !== "DISTINCT")
        return splice(scanned.bytes, tokens[index + 1]!.end, tokens[index + 1]!.end, "DISTINCT ");
    }
    return undefined;
  },
};

/** The perturbations the defog pool uses, in this order. */
export const perturbations: readonly Perturbation[] = [changeLimit, dropWhere, swapAggregate];
