import { SparseVectorIndex } from "../context/sparse-vector-index";
import { createCatalogEmbeddingModel } from "../crush/catalog-embedding-model";
import { rankScores } from "../crush/dense-column-ranking";
import { type SchemaColumn, schemaColumnText } from "../crush/schema-column";
import { type ColumnLink, inferKeyLinks } from "../crush/schema-graph";
import { LearnedColumnRanker } from "./learned-column-ranker";
import { questionTerms } from "./learned-features";
import type { LearnedRetrievalModel } from "./learned-retrieval-model";
import { createStructureExpansion, type StructureExpansionOptions } from "./structure-expansion";
import { type ValueDatabaseEvidenceOptions, valueDatabaseEvidence } from "./value-database-evidence";
import { type ColumnValueHit, fuseValueVotes, type ValueVoteFusionOptions } from "./value-vote-fusion";

/** Optional steps after the question-only ranking (`QuestionColumnRanking.rank`). */
export interface QuestionRankingSteps {
  /** Value-index hits of the question's keywords: value-aware fusion (`fuseValueVotes`). Default none. */
  readonly valueHits?: readonly ColumnValueHit[];
  readonly valueFusion?: ValueVoteFusionOptions;
  /**
   * The same hits as database evidence added to the learnt scores (`valueDatabaseEvidence`) before the fusion. Default
   * on (weight 2) whenever `valueHits` are given and there is a model; `{ weight: 0 }` turns it off.
   */
  readonly valueDatabaseEvidence?: ValueDatabaseEvidenceOptions;
  /** Pull in the join keys of well-ranked tables (`createStructureExpansion`). Default off. */
  readonly structure?: boolean;
}

/** Ranked columns a fusion step looks at: the learnt model's candidate pool size. */
const fusionPool = 300;

/** Question-only column ranking over one catalog (what `nlq bench retrieval` measures and the selector uses). */
export interface QuestionColumnRanking {
  /** Learnt model version, or undefined for the purely lexical ranking. */
  readonly modelVersion: string | undefined;
  /** Cosine of the question to every column under the offline catalog embedder, in column order. */
  similarities(question: string): Float64Array;
  /**
   * Column indexes, best first, at most `limit`; with value hits, their database evidence in the learnt scores and the
   * value fusion, then structure, when `steps` ask for them.
   */
  rank(question: string, limit: number, steps?: QuestionRankingSteps): number[];
}

/**
 * The offline catalog embedder (IDF from the catalog, columns embedded as `database.table.column`) searched through a
 * sparse postings index, re-ranked by the learnt model when one is given. Synchronous and in process: embedding 4,500
 * columns takes well under a second; a question costs about a millisecond.
 */
export function createQuestionColumnRanking(
  columns: readonly SchemaColumn[],
  model?: LearnedRetrievalModel,
  structure: { readonly links?: readonly ColumnLink[]; readonly options?: StructureExpansionOptions } = {},
): QuestionColumnRanking {
  const embeddingModel = createCatalogEmbeddingModel(columns);
  const index = new SparseVectorIndex(
    columns.map((column) => embeddingModel.embedText(schemaColumnText(column, { includeDatabase: true }))),
  );
  const ranker = new LearnedColumnRanker(columns, model);
  const similarities = (question: string) => index.similarities(embeddingModel.embedText(question));
  let expand: ReturnType<typeof createStructureExpansion> | undefined;
  const baseRank = (question: string, limit: number, databaseEvidence?: ReadonlyMap<string, number>) => {
    const scores = similarities(question);
    return model ? ranker.rank(questionTerms(question), scores, limit, databaseEvidence) : rankScores(scores, limit);
  };
  const databaseOf = (column: number) => columns[column]?.database ?? "";
  return {
    modelVersion: model?.version,
    similarities,
    rank(question, limit, steps = {}) {
      const fuse = (steps.valueHits?.length ?? 0) > 0;
      if (!fuse && !steps.structure) return baseRank(question, limit);
      const evidence = fuse
        ? valueDatabaseEvidence(steps.valueHits!, databaseOf, steps.valueDatabaseEvidence)
        : undefined;
      let ranking = baseRank(question, Math.max(limit, fusionPool), evidence);
      if (fuse) ranking = fuseValueVotes(ranking, steps.valueHits!, ranking.length, steps.valueFusion);
      if (steps.structure) {
        expand ??= createStructureExpansion(columns, structure.links ?? inferKeyLinks(columns), structure.options);
        ranking = expand(ranking, limit);
      }
      return ranking.slice(0, limit);
    },
  };
}
