import { seededRandom } from "@nlq/engine";

/**
 * The databases a seeded Spider trial sample draws from (`sample-spider-questions.ts`): the databases of
 * `train_queries.csv` records (`database` first) that have no missing CSV (`MISSING_BLOBS.txt`), sorted, shuffled by
 * `seed`; the sample takes the first `count`. With the defaults of the 2026-11-27 real-model trial (seed 27, 30) these
 * are the trial's databases, which later samples leave out. Also returns the records grouped by database.
 */
export function spiderTrialDatabases(
  records: readonly (readonly string[])[],
  missingBlobs: string,
  seed: number,
  count: number,
): { readonly chosen: string[]; readonly byDatabase: Map<string, string[][]>; readonly random: () => number } {
  const random = seededRandom(seed);
  const byDatabase = new Map<string, string[][]>();
  for (const record of records) {
    const database = record[0] ?? "";
    // Databases with a table whose data is missing would score against empty tables: left out.
    if (missingBlobs.includes(`${database}/`)) continue;
    byDatabase.set(database, [...(byDatabase.get(database) ?? []), [...record]]);
  }
  const databases = [...byDatabase.keys()].sort();
  for (let index = databases.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1));
    [databases[index], databases[other]] = [databases[other] as string, databases[index] as string];
  }
  return { chosen: databases.slice(0, count).sort(), byDatabase, random };
}
