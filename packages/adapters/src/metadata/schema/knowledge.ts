import type { ConfirmedReading } from "@nlq/engine";
import { sql } from "drizzle-orm";
import { bigserial, boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

/**
 * What people taught nlq about a data source (`host:port/database`, as verified examples are keyed): glossary terms,
 * metrics, table and column descriptions, rules, and readings a user confirmed (issue 27,
 * docs/decisions/2026-12-01-readings-knowledge-and-teaching.md). Each entry belongs to the role that wrote it; an
 * administrator's is shared with every role, and even then reaches a role only when that role may read every table
 * and column in `references`. A `suggested` entry (proposed through MCP) reaches no prompt until an administrator
 * accepts it. Every change is kept in `knowledge_history`.
 */
export const knowledgeEntries = pgTable(
  "knowledge_entries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    dataSource: text("data_source").notNull(),
    /** `KnowledgeKind`: term, metric, description, rule, reading. */
    kind: text("kind").notNull(),
    /** The term or metric name, the described element (`schema.table[.column]`), a rule's title, a reading's phrase. */
    name: text("name").notNull(),
    /** `name` lower-cased and trimmed: one entry per author, kind and name. */
    nameKey: text("name_key").notNull(),
    /** The definition, description or rule in plain language. */
    text: text("text").notNull(),
    /** A metric's SQL expression or a rule's SQL condition; null for other entries. */
    sql: text("sql"),
    /** Every table and column the entry names, qualified (`schema.table` or `schema.table.column`). */
    references: jsonb("references").$type<string[]>().notNull().default([]),
    /** For `reading` entries: the confirmed choice and its alternatives. */
    reading: jsonb("reading").$type<ConfirmedReading>(),
    /** `KnowledgeOrigin`: manual, dbt, yaml, comment, catalog-files, reading, suggestion. */
    origin: text("origin").notNull(),
    /** Where an imported entry came from (a dbt node's `unique_id`, a YAML file's entry name); null otherwise. */
    externalId: text("external_id"),
    /** How an entry of origin `reading` was made: "picked from 3 readings by alice". Null otherwise. */
    provenance: text("provenance"),
    /** The role that wrote it (its owner), or that accepted a suggestion; never shown to other roles. */
    author: text("author").notNull(),
    /** True when an administrator wrote (or accepted) it for every role; false: for `author` only. */
    sharedWithAllRoles: boolean("shared_with_all_roles").notNull().default(false),
    /** `active` (used and listed) or `suggested` (waiting for an administrator; used nowhere). */
    status: text("status").notNull().default("active"),
    /** The role that proposed an accepted or pending suggestion; null otherwise. */
    suggestedBy: text("suggested_by"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("knowledge_entries_owner_name_idx")
      .on(table.dataSource, table.author, table.kind, table.nameKey)
      .where(sql`${table.status} = 'active'`),
    index("knowledge_entries_data_source_idx").on(table.dataSource, table.status, table.updatedAt),
  ],
);

/** An entry as it was after a change (before it, for a removal): what `knowledge_history` keeps. */
export interface KnowledgeSnapshot {
  readonly kind: string;
  readonly name: string;
  readonly text: string;
  readonly sql: string | null;
  readonly references: readonly string[];
  readonly reading: ConfirmedReading | null;
  readonly origin: string;
  readonly author: string;
  readonly sharedWithAllRoles: boolean;
  readonly status: string;
  readonly suggestedBy: string | null;
}

/**
 * Every change of a knowledge entry: who made it, when, and the entry as it then was. Rows stay when the entry is
 * removed (its last row is the removal, with the entry as it was), so a removal can be read back and undone by hand.
 */
export const knowledgeHistory = pgTable(
  "knowledge_history",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    entryId: uuid("entry_id").notNull(),
    dataSource: text("data_source").notNull(),
    /** created, updated, removed, suggested, accepted, rejected. */
    action: text("action").notNull(),
    /** The role that made the change. */
    changedBy: text("changed_by").notNull(),
    changedAt: timestamp("changed_at", { withTimezone: true }).notNull().defaultNow(),
    entry: jsonb("entry").$type<KnowledgeSnapshot>().notNull(),
  },
  (table) => [
    index("knowledge_history_entry_idx").on(table.entryId, table.changedAt),
    index("knowledge_history_data_source_idx").on(table.dataSource, table.changedAt),
  ],
);

export type KnowledgeEntryRow = typeof knowledgeEntries.$inferSelect;
export type KnowledgeHistoryRow = typeof knowledgeHistory.$inferSelect;
