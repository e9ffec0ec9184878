import type { EmbeddingModel } from "ai";
import { embedMany } from "ai";
import type { VectorStore } from "../../vector-store/vector-store";

export interface RetrieveContextOptions {
  readonly vectorStore: VectorStore;
  /** The data source's catalog collection (`catalogCollectionName`). */
  readonly collection: string;
  /** The model the collection was embedded with. */
  readonly embeddingModel: EmbeddingModel;
  readonly question: string;
  readonly keywords: readonly string[];
  /** Hits kept per probe (the question and each keyword). Default 5 (CHESS). */
  readonly limitPerProbe?: number;
  /** Tables the asking role may read (`schema.table`); hits of other tables are dropped. Default: no restriction. */
  readonly readableTables?: ReadonlySet<string>;
  readonly abortSignal?: AbortSignal;
}

/** A table or column description close to the question or a keyword. */
export interface ContextHit {
  readonly kind: "table" | "column";
  /** `schema.table`. */
  readonly table: string;
  /** Column name; absent for tables. */
  readonly column?: string;
  /** The embedded description text. */
  readonly text: string;
  /** Best cosine similarity over the probes. */
  readonly score: number;
}

/**
 * CHESS retrieve_context: the top-k table and column descriptions by vector search for the question and for each
 * keyword, merged (best score per element), best first.
 */
export async function retrieveContext(options: RetrieveContextOptions): Promise<ContextHit[]> {
  const probes = [options.question, ...options.keywords];
  const { embeddings } = await embedMany({
    model: options.embeddingModel,
    values: probes,
    abortSignal: options.abortSignal,
    maxRetries: 0,
  });
  const limit = options.limitPerProbe ?? 5;
  const best = new Map<string, ContextHit>();
  const searches = embeddings.flatMap((vector, probe) => {
    const kinds: Array<"column" | "table"> = probe === 0 ? ["column", "table"] : ["column"];
    return kinds.map((kind) =>
      options.vectorStore.search({ collection: options.collection, vector, limit, filter: { kind } }),
    );
  });
  for (const hits of await Promise.all(searches)) {
    for (const hit of hits) {
      const table = hit.payload.table;
      if (options.readableTables && !options.readableTables.has(table)) continue;
      const previous = best.get(hit.id);
      if (previous && previous.score >= hit.score) continue;
      const column = typeof hit.payload.column === "string" ? hit.payload.column : undefined;
      best.set(hit.id, {
        kind: hit.payload.kind === "table" ? "table" : "column",
        table,
        column,
        text: typeof hit.payload.text === "string" ? hit.payload.text : "",
        score: hit.score,
      });
    }
  }
  return [...best.values()].sort((left, right) => right.score - left.score);
}
