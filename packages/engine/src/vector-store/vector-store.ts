/**
 * The vector store contract of nlq: one interface, two interchangeable backends (Qdrant, embedded)
 * that pass one shared contract suite (`vector-store-contract.ts`).
 *
 * A collection holds the embeddings of one data source (tables, columns, sample values). Points are
 * addressed by string ids chosen by the caller (e.g. `column:public.orders.amount`); the score of a
 * search hit is the cosine similarity of the query vector and the stored vector (in [-1, 1]).
 */

/** What an embedded element describes: a table, a column or a sample value of a column. */
export type VectorElementKind = "table" | "column" | "value";

/**
 * Payload stored with each point. `kind` and `table` are required so searches can be filtered by them;
 * any other JSON-serialisable fields (column name, description text, the value, ...) ride along unchanged.
 */
export type VectorPayload = {
  /** The kind of catalog element the vector embeds. */
  readonly kind: VectorElementKind;
  /** Qualified table name (`schema.table`) the element belongs to; for a table, the table itself. */
  readonly table: string;
  readonly [field: string]: unknown;
};

/** One stored vector. */
export type VectorPoint = {
  /** Caller-chosen identifier, unique within the collection; upserting the same id replaces the point. */
  readonly id: string;
  /** The embedding; its length must equal the collection's `dimensions`. */
  readonly vector: ArrayLike<number>;
  readonly payload: VectorPayload;
};

/** Restricts a search, count or delete to points whose payload matches every given condition. */
export type VectorFilter = {
  /** Only points of this kind. Default: any kind. */
  readonly kind?: VectorElementKind;
  /** Only points whose `payload.table` equals this table. Default: any table. */
  readonly table?: string;
  /** Only points whose `payload.table` is one of these tables (an empty list matches nothing). Default: any table. */
  readonly tables?: readonly string[];
};

/** One search hit, best first. */
export type VectorSearchResult = {
  readonly id: string;
  /** Cosine similarity to the query vector, in [-1, 1]; higher is closer. */
  readonly score: number;
  readonly payload: VectorPayload;
};

export type EnsureCollectionOptions = {
  /** Collection name: one collection per data source. Letters, digits, `_` and `-` only. */
  readonly collection: string;
  /** Vector length of every point in the collection. An existing collection with another length is an error. */
  readonly dimensions: number;
};

export type UpsertOptions = {
  readonly collection: string;
  /** Points to insert or replace. Sent to the backend in batches (see each backend's `batchSize`). */
  readonly points: readonly VectorPoint[];
};

export type SearchOptions = {
  readonly collection: string;
  /** Query vector; same length as the collection's vectors. It need not be normalised. */
  readonly vector: ArrayLike<number>;
  /** Maximum number of hits. */
  readonly limit: number;
  /** Payload conditions. Default: none. */
  readonly filter?: VectorFilter;
};

export type DeleteOptions =
  | { readonly collection: string; readonly ids: readonly string[]; readonly filter?: undefined }
  | { readonly collection: string; readonly filter: VectorFilter; readonly ids?: undefined };

export type CountOptions = {
  readonly collection: string;
  /** Payload conditions. Default: none (all points). */
  readonly filter?: VectorFilter;
};

export type CollectionOptions = { readonly collection: string };

/** A vector store backend. Every method is async and takes one options object. */
export type VectorStore = {
  /** Backend name for logs and traces: `"qdrant"` or `"embedded"`. */
  readonly name: string;
  /** Creates the collection (cosine distance) unless it exists; throws if it exists with other dimensions. */
  ensureCollection(options: EnsureCollectionOptions): Promise<void>;
  /** Inserts or replaces points by id. */
  upsert(options: UpsertOptions): Promise<void>;
  /** The `limit` nearest points by cosine similarity, best first (ties broken by id). */
  search(options: SearchOptions): Promise<VectorSearchResult[]>;
  /** Deletes points by id (unknown ids are ignored) or by filter. */
  delete(options: DeleteOptions): Promise<void>;
  /** Number of points, optionally matching a filter. */
  count(options: CountOptions): Promise<number>;
  /** Removes the collection and its points; no error when it does not exist. */
  dropCollection(options: CollectionOptions): Promise<void>;
  /** Releases resources (connections, timers). The store must not be used afterwards. */
  close(): Promise<void>;
};
