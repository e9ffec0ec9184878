/**
 * What people taught nlq about a data source, as the pipeline receives it: glossary terms, metrics, table and column
 * descriptions, rules, and readings a user confirmed. The metadata store keeps them (with author, scope and history);
 * the composition hands the engine the entries the asking role may be shown, and the engine keeps, per question, only
 * those it retrieves for the question whose every named table and column the role may read.
 * See docs/decisions/2026-12-01-readings-knowledge-and-teaching.md.
 */

/** What kind of knowledge an entry is. */
export type KnowledgeKind = "term" | "metric" | "description" | "rule" | "reading";

/** Where an entry came from (`catalog-files`: a defog glossary read by `nlq index --catalog-files`). */
export type KnowledgeOrigin = "manual" | "dbt" | "yaml" | "comment" | "catalog-files" | "reading" | "suggestion";

/** One side of a confirmed reading: what a phrase was taken to mean, in schema elements. */
export interface ReadingChoice {
  /** A short human label, e.g. `singer.stage_name`, `the stored totals in sales_summary`. */
  readonly label: string;
  /** The schema elements it stands for, qualified (`schema.table` or `schema.table.column`). */
  readonly elements: readonly string[];
}

/** The reading a user confirmed for a phrase, and the alternatives that were offered beside it. */
export interface ConfirmedReading {
  /** The phrase of the question the readings differed on, as the reading step found it (e.g. `name`). */
  readonly phrase: string;
  readonly chosen: ReadingChoice;
  readonly alternatives: readonly ReadingChoice[];
}

export interface KnowledgeEntry {
  /** Stable id (the store's). */
  readonly id: string;
  readonly kind: KnowledgeKind;
  /**
   * What the entry is about: the term or metric name (`active customer`, `net revenue`), the element a description
   * describes (`sales.orders.total_cents`), a rule's short title, or a reading's phrase.
   */
  readonly name: string;
  /** The definition, description or rule in plain language. */
  readonly text: string;
  /** A metric's SQL expression (`sum(amount_cents) / 100.0`), or a rule's SQL condition (`is_test = false`). */
  readonly sql?: string;
  /**
   * Every table and column the entry names, qualified (`schema.table` or `schema.table.column`): it reaches a prompt
   * only when the asking role may read all of them. Empty: it names no schema element (a pure glossary term).
   */
  readonly references: readonly string[];
  /** For `reading` entries: the confirmed choice and what it was chosen over. */
  readonly reading?: ConfirmedReading;
  readonly origin: KnowledgeOrigin;
  /** True when an administrator wrote it for every role; false: the author's own. */
  readonly sharedWithAllRoles: boolean;
  /** When it last changed (ISO 8601): shown with the entry, and part of what a cached answer depended on. */
  readonly updatedAt: string;
}

/** What an answer says it used: each entry that reached its prompts. */
export interface KnowledgeUsed {
  readonly id: string;
  readonly kind: KnowledgeKind;
  readonly name: string;
}
