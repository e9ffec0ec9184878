import {
  generateFromExamplesPrompt,
  generateFromExamplesSystemPrompt,
  type PromptExample,
  synthesizedExamplesOutputSchema,
  synthesizeExamplesPrompt,
  synthesizeExamplesSystemPrompt,
} from "@nlq/prompts";
import { parseSync } from "libpg-query";
import type { Catalog } from "../catalog/catalog-types";
import { renderSchema } from "../schema/render-schema";
import { loadSqlParser } from "../sql/validate-sql";
import type { CandidateGenerator } from "./candidate-generator";
import { extractSql } from "./extract-sql";
import { shuffleCatalogForSample } from "./sample-schema";
import { wholeSchemaCatalog } from "./whole-schema-catalog";
import { writeSql } from "./write-sql";

export interface SyntheticExamplesGeneratorOptions {
  /** Examples over the whole database by SQL feature (n_f). Default 12. */
  readonly featureExamples?: number;
  /** Examples over the selected columns (n_t). Default 8. */
  readonly schemaExamples?: number;
  /** Most tables shown as "the whole database" (see `wholeSchemaCatalog`). Default 40. */
  readonly maxWholeSchemaTables?: number;
}

/**
 * CHASE-SQL online synthetic example generation (§2.3, Algorithm 2, appendix A.13) in two calls: `synthesize-examples`
 * writes n_f examples over the whole database following common SQL features and n_t over the selected columns, then
 * `generate-from-examples` writes the query with them as demonstrations, together with the verified examples.
 * Synthetic examples whose SQL is empty, does not parse as one SELECT, or repeats another are dropped. Each sample
 * sees both schemas in its own order (`shuffleCatalogForSample`) and synthesises its own examples.
 */
export function createSyntheticExamplesGenerator(options: SyntheticExamplesGeneratorOptions = {}): CandidateGenerator {
  const featureExamples = options.featureExamples ?? 12;
  const schemaExamples = options.schemaExamples ?? 8;
  const maxWholeSchemaTables = options.maxWholeSchemaTables ?? 40;
  return {
    name: "synthetic-examples",
    async generate({ schema, catalog, fullCatalog, context, previousTurns, examples, sample, temperature }) {
      const whole = wholeSchemaCatalog(fullCatalog, catalog, maxWholeSchemaTables);
      // When the selection kept the whole database (a small one), the schema is shown once, not twice.
      const selectedIsWhole = sameColumns(whole, catalog);
      const synthesized = await context.runModelStep({
        step: "synthesize-examples",
        sample,
        temperature,
        schema: synthesizedExamplesOutputSchema,
        system: synthesizeExamplesSystemPrompt,
        prompt: synthesizeExamplesPrompt({
          wholeSchema: renderSchema(shuffleCatalogForSample(whole, sample)),
          ...(selectedIsWhole ? {} : { selectedSchema: schema }),
          featureExamples,
          schemaExamples,
          examples,
        }),
      });
      context.throwIfCancelled();
      const syntheticExamples = await usableExamples(synthesized.examples, featureExamples + schemaExamples);
      return writeSql({
        context,
        step: "generate-from-examples",
        sample,
        temperature,
        system: generateFromExamplesSystemPrompt,
        prompt: generateFromExamplesPrompt({
          schema,
          question: context.question,
          hint: context.hint,
          questionContext: context.questionContext,
          previousTurns,
          syntheticExamples,
          examples,
        }),
      });
    },
  };
}

export const syntheticExamplesGenerator = createSyntheticExamplesGenerator();

/** Whether two catalogs hold the same tables with the same columns (in any order). */
function sameColumns(left: Catalog, right: Catalog): boolean {
  const columns = (catalog: Catalog) =>
    catalog.tables
      .flatMap((table) => table.columns.map((column) => `${table.schema}.${table.name}.${column.name}`))
      .sort()
      .join("\n");
  return columns(left) === columns(right);
}

/** Cleaned examples (query recovered by `extractSql`), each one parsing as a single SELECT, no repeats, at most `limit`. */
async function usableExamples(examples: readonly PromptExample[], limit: number): Promise<PromptExample[]> {
  await loadSqlParser();
  const usable: PromptExample[] = [];
  const seen = new Set<string>();
  for (const example of examples) {
    const question = example.question.trim();
    const sql = extractSql(example.sql);
    const key = sql.replace(/\s+/g, " ").toLowerCase();
    if (question === "" || sql === "" || seen.has(key) || !isOneSelect(sql)) continue;
    seen.add(key);
    usable.push({ question, sql });
    if (usable.length >= limit) break;
  }
  return usable;
}

function isOneSelect(sql: string): boolean {
  try {
    const tree = parseSync(sql) as { stmts?: Array<{ stmt?: Record<string, unknown> }> };
    return tree.stmts?.length === 1 && tree.stmts[0]?.stmt !== undefined && "SelectStmt" in tree.stmts[0].stmt;
  } catch {
    return false;
  }
}
