/** The types `KnowledgeStore` and its helpers share. */
import type { KnowledgeOrigin } from "@nlq/engine";
import type { KnowledgeEntryContent } from "./knowledge-entry-input";
import type { MetadataDatabase } from "./metadata-database";

/** A new entry: its content, where it came from and on which data source (`host:port/database`). */
export interface NewKnowledgeEntry extends KnowledgeEntryContent {
  readonly dataSource: string;
  readonly origin: KnowledgeOrigin;
  /** Where an imported entry came from (a dbt node's `unique_id`). Default: none. */
  readonly externalId?: string;
  /** How a `reading` entry was made ("picked from 3 readings by alice"). Default: none. */
  readonly provenance?: string;
}

/** Who is acting: the signed-in role and whether it is an administrator (as for verified examples). */
export interface KnowledgeEditor {
  readonly role: string;
  readonly administrator: boolean;
}

/** What `save` did. */
export type KnowledgeSaveAction = "created" | "updated" | "unchanged";

/** What an import changed (`sync`). */
export interface KnowledgeSyncCounts {
  readonly created: number;
  readonly updated: number;
  readonly unchanged: number;
  readonly removed: number;
}

export type Transaction = Parameters<Parameters<MetadataDatabase["transaction"]>[0]>[0];
/** The database or a transaction on it: what the store's helpers write through. */
export type Writer = MetadataDatabase | Transaction;

/** An entry id as the store makes them (anything else is no entry, without asking the database). */
export const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
