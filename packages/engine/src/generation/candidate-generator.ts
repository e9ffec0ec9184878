import type { Catalog } from "../catalog/catalog-types";
import type { ConversationTurn, VerifiedExample } from "../contract/answer";
import type { StepContext } from "../llm/step-context";

export interface GenerateCandidateOptions {
  /** The schema shown to the model: the selected catalog rendered as DDL, its tables in this sample's order. */
  readonly schema: string;
  /** The selected catalog (what `schema` renders), for generators that reason over columns themselves. */
  readonly catalog: Catalog;
  /**
   * Every table the asking role may read (the catalog before schema selection), for generators that look beyond the
   * selected columns (online synthetic examples over the whole schema).
   */
  readonly fullCatalog: Catalog;
  readonly context: StepContext;
  /** Earlier turns of the conversation. Default: none. */
  readonly previousTurns?: readonly ConversationTurn[];
  /** Verified question–SQL pairs for this data source, most similar first, shown as demonstrations. */
  readonly examples: readonly VerifiedExample[];
  /** Which sample of this generator this call writes (0, 1, …); scripted fixtures and the response cache key on it. */
  readonly sample: number;
  /** Sampling temperature of this sample (from the preset). */
  readonly temperature: number;
}

export interface GeneratedCandidate {
  readonly sql: string;
  readonly reasoning: string;
}

/**
 * A way to write candidate SQL (CHESS one-shot, CHASE-SQL divide-and-conquer, query plan, online synthetic examples).
 * Add one by implementing this and registering it in `generator-registry.ts`; presets name generators by `name`.
 */
export interface CandidateGenerator {
  readonly name: string;
  /** Throws `UnanswerableQuestionError` when the model judged the question unanswerable. */
  generate(options: GenerateCandidateOptions): Promise<GeneratedCandidate>;
}
