import { createPgExecutor, ensureDataSource, loadCatalog, type QuestionAnswererOptions } from "@nlq/adapters";
import { loadSqlParser, type ResolvedModel } from "@nlq/engine";
import pg from "pg";
import { createEvaluationExecutor } from "../execution/execute-for-evaluation";
import { type GoldQuestion, readQuestionFile } from "../execution/question-set";
import { extractGoldSchema } from "../prompt-size/gold-columns";
import { createGoldScriptedModel, type GoldScript } from "./gold-scripted-model";
import type { PresetQuestion } from "./run-preset-benchmark";

export interface WarehousePresetQuestionsOptions {
  /** The loaded Spider warehouse (`bench/spider-warehouse`), indexed with `nlq index`. */
  readonly url: string;
  /** The metadata store `nlq index` wrote (gold tables and columns are matched against its catalog). */
  readonly metadataStore: NonNullable<QuestionAnswererOptions["store"]>;
  /** `train_queries.csv`. */
  readonly questionsFile: string;
  /**
   * Questions asked: every n-th of those whose gold translated, each question text once; where the n-th gold does not
   * run on the warehouse, the next question whose gold runs takes its place.
   */
  readonly count: number;
}

export interface WarehousePresetQuestions {
  readonly questions: readonly PresetQuestion[];
  /** The gold-scripted model of every step (`createGoldScriptedModel`). */
  readonly model: ResolvedModel;
  /** Questions of the file, those left out because their gold did not translate, and the n-th ones passed over
   * because their gold did not run. */
  readonly fileQuestions: number;
  readonly untranslated: number;
  readonly goldDoesNotRun: number;
}

/**
 * The preset benchmark's questions on the Spider warehouse: every n-th question of `train_queries.csv` whose gold
 * translated to PostgreSQL and runs there, asked in its database's schema, with a model scripted from each gold
 * (`createGoldScriptedModel`: gold SQL, gold tables and columns from `extractGoldSchema` on the indexed catalog).
 */
export async function prepareWarehousePresetQuestions(
  options: WarehousePresetQuestionsOptions,
): Promise<WarehousePresetQuestions> {
  await loadSqlParser();
  const all = await readQuestionFile(options.questionsFile);
  const translated = all.filter((question) => question.goldError === undefined && question.schema !== undefined);
  const seen = new Set<string>();
  const distinct = translated.filter((question) => !seen.has(question.question) && seen.add(question.question));
  const client = new pg.Client({ connectionString: options.url });
  await client.connect();
  try {
    const session = createPgExecutor(client, { name: "nlq-bench-presets" });
    const execute = createEvaluationExecutor({ session });
    // Every n-th question (deterministic); one whose gold does not run gives way to the next that does.
    const step = Math.max(1, Math.floor(distinct.length / options.count));
    const chosen: GoldQuestion[] = [];
    let goldDoesNotRun = 0;
    for (let start = 0; start < distinct.length && chosen.length < options.count; start += step) {
      for (let index = start; index < Math.min(start + step, distinct.length); index += 1) {
        const question = distinct[index]!;
        if ((await execute(question.gold, question.schema)).ok) {
          chosen.push(question);
          break;
        }
        goldDoesNotRun += 1;
      }
    }
    const dataSource = await ensureDataSource(options.metadataStore.database, { url: options.url });
    const loaded = await loadCatalog({ store: options.metadataStore, dataSource, session });
    if (loaded.source !== "index")
      throw new Error(`no catalog index for ${dataSource.name}: run nlq index --url ${options.url} first`);
    const scripts = new Map<string, GoldScript>();
    for (const question of chosen) {
      scripts.set(question.question, {
        sql: question.gold,
        goldSchema: extractGoldSchema(loaded.catalog, question.schema!, question.sourceGold ?? question.gold),
      });
    }
    return {
      questions: chosen.map((question) => ({ question: question.question, schema: question.schema })),
      model: createGoldScriptedModel(scripts),
      fileQuestions: all.length,
      untranslated: all.length - translated.length,
      goldDoesNotRun,
    };
  } finally {
    await client.end();
  }
}
