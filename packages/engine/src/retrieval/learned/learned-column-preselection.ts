import type { Catalog } from "../../catalog/catalog-types";
import { catalogSchemaColumns } from "../crush/crush-preselector";
import { defaultLearnedRetrievalModel } from "./default-learned-model";
import { createQuestionColumnRanking } from "./learned-question-ranking";
import type { LearnedRetrievalModel } from "./learned-retrieval-model";

/** Options of `createLearnedColumnPreselection`. */
export interface LearnedColumnPreselectionOptions {
  /** Columns returned per question. Default 20. */
  readonly columns?: number;
  /** Default: the shipped model (`defaultLearnedRetrievalModel`). */
  readonly model?: LearnedRetrievalModel;
}

/**
 * The learnt question-only retriever over a whole catalog as the selector's `rankColumns`: the same ranking
 * `nlq bench retrieval` measures as `question+learned` (offline catalog embedder + learnt re-ranking), built once per
 * catalog. Keys are `schema.table` as in the selector.
 */
export function createLearnedColumnPreselection(
  catalog: Catalog,
  options: LearnedColumnPreselectionOptions = {},
): (question: string) => { table: string; column: string }[] {
  const { columns } = catalogSchemaColumns(catalog);
  const ranking = createQuestionColumnRanking(columns, options.model ?? defaultLearnedRetrievalModel());
  const limit = options.columns ?? 20;
  return (question) =>
    ranking.rank(question, limit).map((position) => {
      const column = columns[position]!;
      return { table: `${column.database}.${column.table}`, column: column.column };
    });
}
