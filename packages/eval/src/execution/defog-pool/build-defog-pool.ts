import { readdirSync } from "node:fs";
import path from "node:path";
import { loadSqlParser, seededRandom } from "@nlq/engine";
import type { PoolQuestion } from "../candidate-pool";
import { expandGoldAlternatives } from "../gold-alternatives";
import { readQuestionFile } from "../question-set";
import { perturbations } from "./perturb-sql";

export interface DefogPoolOptions {
  /** The defog data directory (with `questions/*.csv`). */
  readonly defogDirectory: string;
  /** Seed of the candidate order shuffle. Default 8. */
  readonly seed?: number;
  /** Leave the gold out of the candidates (a pool of perturbations only). Default false. */
  readonly withoutGold?: boolean;
}

/**
 * A candidate pool from defog's questions: per question the gold's first alternative (source `gold`) and each
 * perturbation of it that applies and changes the text (sources `limit`, `drop-where`, `swap-aggregate`), in an order
 * shuffled with a seeded generator so ties in self-consistency do not favour the gold. Perturbations can still be
 * equivalent to the gold (e.g. `count(DISTINCT id)` on a key): the pool is scored by execution, not by construction.
 */
export async function buildDefogPool(options: DefogPoolOptions): Promise<PoolQuestion[]> {
  await loadSqlParser();
  const random = seededRandom(options.seed ?? 8);
  const directory = path.join(options.defogDirectory, "questions");
  const files = readdirSync(directory)
    .filter((file) => file.endsWith(".csv"))
    .sort();
  const pool: PoolQuestion[] = [];
  for (const file of files) {
    for (const question of await readQuestionFile(path.join(directory, file))) {
      const gold = expandGoldAlternatives(question.gold)[0];
      if (gold === undefined) continue;
      const candidates = options.withoutGold ? [] : [{ source: "gold", sql: gold }];
      for (const perturbation of perturbations) {
        const sql = perturbation.apply(gold);
        if (sql !== undefined && sql.trim() !== gold.trim()) candidates.push({ source: perturbation.name, sql });
      }
      for (let index = candidates.length - 1; index > 0; index--) {
        const other = Math.floor(random() * (index + 1));
        [candidates[index], candidates[other]] = [candidates[other]!, candidates[index]!];
      }
      pool.push({
        id: question.id,
        question: question.question,
        ...(question.schema === undefined ? {} : { schema: question.schema }),
        gold: question.gold,
        candidates,
      });
    }
  }
  return pool;
}
