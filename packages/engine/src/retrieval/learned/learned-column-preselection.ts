import type { Catalog } from "../../catalog/catalog-types";
import { catalogSchemaColumns } from "../crush/crush-preselector";
import type { ValueMatch } from "../retrieve";
import { defaultLearnedRetrievalModel } from "./default-learned-model";
import { createQuestionColumnRanking } from "./learned-question-ranking";
import type { LearnedRetrievalModel } from "./learned-retrieval-model";

/** Options of `createLearnedColumnPreselection`. */
export interface LearnedColumnPreselectionOptions {
  /** Columns returned per question. Default 20. */
  readonly columns?: number;
  /** Default: the shipped model (`defaultLearnedRetrievalModel`). */
  readonly model?: LearnedRetrievalModel;
  /**
   * Value-aware retrieval of the value matches the retriever passes: their schemas' evidence in the learnt scores
   * (`valueDatabaseEvidence`) and the fusion (`fuseValueVotes`). Default true.
   */
  readonly values?: boolean;
  /**
   * Structure step (`createStructureExpansion`) over the catalog's foreign keys (inferred when it has none). Default
   * true: it raised held-out recall@10 on SpiderUnion and BirdUnion (BENCHMARKS.md).
   */
  readonly structure?: boolean;
}

/**
 * The learnt question-only retriever over a whole catalog as the selector's `rankColumns`: the same ranking
 * `nlq bench retrieval` measures as `question+learned` (offline catalog embedder + learnt re-ranking), built once per
 * catalog. Keys are `schema.table` as in the selector. Value matches given with a question (the retriever's, already
 * restricted to what the asking role can see) vote for their schemas and their columns (value-aware retrieval) unless
 * `values` is false.
 */
export function createLearnedColumnPreselection(
  catalog: Catalog,
  options: LearnedColumnPreselectionOptions = {},
): (question: string, values?: readonly ValueMatch[]) => { table: string; column: string }[] {
  const { columns, links } = catalogSchemaColumns(catalog);
  const ranking = createQuestionColumnRanking(columns, options.model ?? defaultLearnedRetrievalModel(), { links });
  const positions = new Map(
    columns.map((column, position) => [`${column.database}.${column.table}.${column.column}`, position]),
  );
  const limit = options.columns ?? 20;
  const useValues = options.values ?? true;
  return (question, values = []) => {
    const valueHits = useValues
      ? values.flatMap((match) => {
          const column = positions.get(`${match.table}.${match.column}`);
          return column === undefined
            ? []
            : [{ keyword: match.keyword, column, similarity: match.editSimilarity ?? 1 }];
        })
      : [];
    return ranking.rank(question, limit, { valueHits, structure: options.structure ?? true }).map((position) => {
      const column = columns[position]!;
      return { table: `${column.database}.${column.table}`, column: column.column };
    });
  };
}
