import { loadSqlParser, seededRandom } from "@nlq/engine";
import { translateMysqlGold } from "@nlq/eval";
import type { AmbiqtRow } from "./ambiqt-row";
import { queryReferences } from "./gold-references";

/** An example left out before anything was built, and why. */
export interface SkippedRow {
  readonly line: number;
  readonly type: string;
  readonly reason: string;
}

/**
 * The tables whose data the Spider warehouse lacks (`MISSING_BLOBS.txt` lines such as
 * `…/databases/wta_1/data/rankings.csv`), as `database/table` lower-cased: a reading over one would read an empty table.
 */
export function missingTables(missingBlobs: string): Set<string> {
  const tables = new Set<string>();
  for (const match of missingBlobs.matchAll(/databases\/([^/\s]+)\/data\/([^/\s]+)\.csv/g))
    tables.add(`${match[1]!.toLowerCase()}/${match[2]!.toLowerCase()}`);
  return tables;
}

/**
 * The examples in the order the loader tries them, and those left out at once (a reading that does not translate to
 * PostgreSQL, or that reads a table whose data is missing). The order is seeded: shuffled, then, within each type,
 * every Spider database's first example before any database's second, so a sample of N per type spreads over as many
 * databases as it can. Needs nothing but the rows: the same seed gives the same order for any AmbiQT file.
 */
export async function orderAmbiqtRows(
  rows: readonly AmbiqtRow[],
  options: { readonly seed: number; readonly missing: ReadonlySet<string> },
): Promise<{ readonly ordered: AmbiqtRow[]; readonly skipped: SkippedRow[] }> {
  await loadSqlParser();
  const skipped: SkippedRow[] = [];
  const usable: AmbiqtRow[] = [];
  for (const row of rows) {
    const golds = [translateMysqlGold(row.query1), translateMysqlGold(row.query2)];
    const failed = golds.find((gold) => !gold.ok);
    if (failed && !failed.ok) {
      skipped.push({ line: row.line, type: row.change.type, reason: failed.error });
      continue;
    }
    // The table a change copies or splits counts too: a copy of an empty table is empty.
    const tables = [
      ...golds.flatMap((gold) => (gold.ok ? [...queryReferences(gold.sql).tables] : [])),
      ...(row.change.type === "P" ? [] : [row.change.table]),
    ];
    const empty = tables.find((table) => options.missing.has(`${row.database.toLowerCase()}/${table}`));
    if (empty !== undefined) {
      skipped.push({ line: row.line, type: row.change.type, reason: `reads ${empty}, whose data is missing` });
      continue;
    }
    usable.push(row);
  }
  const random = seededRandom(options.seed);
  for (let index = usable.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [usable[index], usable[other]] = [usable[other]!, usable[index]!];
  }
  const seen = new Map<string, number>();
  const rank = usable.map((row) => {
    const key = `${row.change.type}/${row.database}`;
    const occurrence = seen.get(key) ?? 0;
    seen.set(key, occurrence + 1);
    return occurrence;
  });
  const ordered = usable
    .map((row, index) => ({ row, rank: rank[index]!, index }))
    .sort((left, right) => left.rank - right.rank || left.index - right.index)
    .map((entry) => entry.row);
  return { ordered, skipped };
}
