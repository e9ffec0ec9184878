import { SparseVectorIndex } from "../context/sparse-vector-index";
import { createCatalogEmbeddingModel } from "../crush/catalog-embedding-model";
import { rankScores } from "../crush/dense-column-ranking";
import { type SchemaColumn, schemaColumnText } from "../crush/schema-column";
import { LearnedColumnRanker } from "./learned-column-ranker";
import { questionTerms } from "./learned-features";
import type { LearnedRetrievalModel } from "./learned-retrieval-model";

/** Question-only column ranking over one catalog (what `nlq bench retrieval` measures and the selector uses). */
export interface QuestionColumnRanking {
  /** Learnt model version, or undefined for the purely lexical ranking. */
  readonly modelVersion: string | undefined;
  /** Cosine of the question to every column under the offline catalog embedder, in column order. */
  similarities(question: string): Float64Array;
  /** Column indexes, best first, at most `limit`. */
  rank(question: string, limit: number): number[];
}

/**
 * The offline catalog embedder (IDF from the catalog, columns embedded as `database.table.column`) searched through a
 * sparse postings index, re-ranked by the learnt model when one is given. Synchronous and in process: embedding 4,500
 * columns takes well under a second; a question costs about a millisecond.
 */
export function createQuestionColumnRanking(
  columns: readonly SchemaColumn[],
  model?: LearnedRetrievalModel,
): QuestionColumnRanking {
  const embeddingModel = createCatalogEmbeddingModel(columns);
  const index = new SparseVectorIndex(
    columns.map((column) => embeddingModel.embedText(schemaColumnText(column, { includeDatabase: true }))),
  );
  const ranker = new LearnedColumnRanker(columns, model);
  const similarities = (question: string) => index.similarities(embeddingModel.embedText(question));
  return {
    modelVersion: model?.version,
    similarities,
    rank(question, limit) {
      const scores = similarities(question);
      return model ? ranker.rank(questionTerms(question), scores, limit) : rankScores(scores, limit);
    },
  };
}
