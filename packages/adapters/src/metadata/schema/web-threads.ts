import { index, integer, jsonb, pgTable, text, timestamp, unique, uuid } from "drizzle-orm/pg-core";

/** A conversation of the web app, owned by one database role on one data source (`host:port/database`). */
export const webThreads = pgTable(
  "web_threads",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** The PostgreSQL role that asked (the signed-in user). */
    role: text("role").notNull(),
    /** `host:port/database` the questions were answered from (no user, no secret). */
    dataSource: text("data_source").notNull(),
    title: text("title").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("web_threads_owner_idx").on(table.role, table.dataSource, table.updatedAt)],
);

/** One question of a thread with its reply (answer with capped rows, or error) and the user's feedback. */
export const webTurns = pgTable(
  "web_turns",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    threadId: uuid("thread_id")
      .notNull()
      .references(() => webThreads.id, { onDelete: "cascade" }),
    /** 0, 1, 2… in the order asked. */
    position: integer("position").notNull(),
    question: text("question").notNull(),
    /** The answer's SQL (the follow-up context of later turns); null when the question failed before any SQL. */
    sql: text("sql"),
    /** The reply as the page shows it: `{ answer }` (rows capped) or `{ error }`. */
    reply: jsonb("reply").$type<Record<string, unknown>>().notNull(),
    /** `up`, `down`, or null (no feedback). */
    feedback: text("feedback"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [unique("web_turns_thread_position_key").on(table.threadId, table.position)],
);

export type WebThreadRow = typeof webThreads.$inferSelect;
export type WebTurnRow = typeof webTurns.$inferSelect;
