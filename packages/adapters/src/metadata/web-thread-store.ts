import { and, asc, desc, eq, max, sql } from "drizzle-orm";
import type { MetadataDatabase } from "./metadata-database";
import { type WebThreadRow, type WebTurnRow, webThreads, webTurns } from "./schema/web-threads";

/** Whose threads: a database role on one data source (`host:port/database`). */
export interface ThreadOwner {
  readonly role: string;
  readonly dataSource: string;
}

/** A thread in the list: no turns, their count and their questions (the history search looks through them). */
export interface ThreadSummary {
  readonly id: string;
  readonly title: string;
  readonly turns: number;
  /** The questions asked in the thread, oldest first, each cut at `maximumListedQuestionLength` characters. */
  readonly questions: readonly string[];
  readonly updatedAt: Date;
}

/** A thread with its turns, oldest first. */
export interface ThreadWithTurns {
  readonly thread: WebThreadRow;
  readonly turns: readonly WebTurnRow[];
}

export interface NewTurn {
  readonly question: string;
  readonly sql?: string;
  readonly reply: Record<string, unknown>;
}

/** Longest thread title kept (the first question, cut). */
const maximumTitleLength = 120;
/** Longest question listed with a thread (enough to search and show; a question may be 4,000 characters). */
export const maximumListedQuestionLength = 300;

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The web app's conversation history in the metadata store. Every method is scoped to an owner (role + data source):
 * a thread id of another role or data source is treated as unknown, so one user can never read or change another's.
 */
export class WebThreadStore {
  constructor(private readonly database: MetadataDatabase) {}

  /** Starts a thread titled by its first question. */
  async create(owner: ThreadOwner, title: string): Promise<WebThreadRow> {
    const [row] = await this.database
      .insert(webThreads)
      .values({ role: owner.role, dataSource: owner.dataSource, title: titleOf(title) })
      .returning();
    return row!;
  }

  /** The owner's threads, most recently used first (at most `limit`, default 100). */
  async list(owner: ThreadOwner, limit = 100): Promise<ThreadSummary[]> {
    const rows = await this.database
      .select({
        id: webThreads.id,
        title: webThreads.title,
        updatedAt: webThreads.updatedAt,
        turns: sql<number>`(SELECT count(*)::int FROM web_turns AS counted WHERE counted.thread_id = web_threads.id)`,
        questions: sql<string[]>`(SELECT coalesce(json_agg(left(asked.question, ${maximumListedQuestionLength})
          ORDER BY asked.position), '[]'::json) FROM web_turns AS asked WHERE asked.thread_id = web_threads.id)`,
      })
      .from(webThreads)
      .where(ownedBy(owner))
      .orderBy(desc(webThreads.updatedAt))
      .limit(limit);
    return rows.map((row) => ({ ...row, turns: Number(row.turns) }));
  }

  /** The thread with its turns, or undefined when it is not the owner's. */
  async get(owner: ThreadOwner, id: string): Promise<ThreadWithTurns | undefined> {
    const thread = await this.find(owner, id);
    if (!thread) return undefined;
    const turns = await this.database
      .select()
      .from(webTurns)
      .where(eq(webTurns.threadId, thread.id))
      .orderBy(asc(webTurns.position));
    return { thread, turns };
  }

  /** Renames the owner's thread; false when it is not theirs. */
  async rename(owner: ThreadOwner, id: string, title: string): Promise<boolean> {
    if (!uuidPattern.test(id)) return false;
    const rows = await this.database
      .update(webThreads)
      .set({ title: titleOf(title), updatedAt: sql`now()` })
      .where(and(eq(webThreads.id, id), ownedBy(owner)))
      .returning({ id: webThreads.id });
    return rows.length > 0;
  }

  /** Deletes the owner's thread and its turns; false when it is not theirs. */
  async delete(owner: ThreadOwner, id: string): Promise<boolean> {
    if (!uuidPattern.test(id)) return false;
    const rows = await this.database
      .delete(webThreads)
      .where(and(eq(webThreads.id, id), ownedBy(owner)))
      .returning({ id: webThreads.id });
    return rows.length > 0;
  }

  /** Appends a turn to the owner's thread (undefined when it is not theirs). */
  async appendTurn(owner: ThreadOwner, threadId: string, turn: NewTurn): Promise<WebTurnRow | undefined> {
    const thread = await this.find(owner, threadId);
    if (!thread) return undefined;
    return this.database.transaction(async (transaction) => {
      const [last] = await transaction
        .select({ position: max(webTurns.position) })
        .from(webTurns)
        .where(eq(webTurns.threadId, thread.id));
      const [row] = await transaction
        .insert(webTurns)
        .values({
          threadId: thread.id,
          position: (last?.position ?? -1) + 1,
          question: turn.question,
          sql: turn.sql ?? null,
          reply: turn.reply,
        })
        .returning();
      await transaction.update(webThreads).set({ updatedAt: sql`now()` }).where(eq(webThreads.id, thread.id));
      return row!;
    });
  }

  /** Records thumbs up/down (or null to clear) on a turn of the owner's; the turn, or undefined when not theirs. */
  async setFeedback(
    owner: ThreadOwner,
    turnId: string,
    feedback: "up" | "down" | null,
  ): Promise<WebTurnRow | undefined> {
    if (!uuidPattern.test(turnId)) return undefined;
    const [row] = await this.database
      .update(webTurns)
      .set({ feedback })
      .where(
        and(
          eq(webTurns.id, turnId),
          sql`${webTurns.threadId} IN (SELECT ${webThreads.id} FROM ${webThreads} WHERE ${webThreads.role} = ${owner.role} AND ${webThreads.dataSource} = ${owner.dataSource})`,
        ),
      )
      .returning();
    return row;
  }

  /** One turn of the owner's threads by its id; undefined when there is none, or it is another role's. */
  async turn(owner: ThreadOwner, turnId: string): Promise<WebTurnRow | undefined> {
    if (!uuidPattern.test(turnId)) return undefined;
    const [row] = await this.database
      .select()
      .from(webTurns)
      .where(
        and(
          eq(webTurns.id, turnId),
          sql`${webTurns.threadId} IN (SELECT ${webThreads.id} FROM ${webThreads} WHERE ${webThreads.role} = ${owner.role} AND ${webThreads.dataSource} = ${owner.dataSource})`,
        ),
      );
    return row;
  }

  private async find(owner: ThreadOwner, id: string): Promise<WebThreadRow | undefined> {
    if (!uuidPattern.test(id)) return undefined;
    const [thread] = await this.database
      .select()
      .from(webThreads)
      .where(and(eq(webThreads.id, id), ownedBy(owner)));
    return thread;
  }
}

function ownedBy(owner: ThreadOwner) {
  return and(eq(webThreads.role, owner.role), eq(webThreads.dataSource, owner.dataSource));
}

function titleOf(text: string): string {
  const title = text.replace(/\s+/g, " ").trim();
  if (title === "") return "Untitled";
  return title.length > maximumTitleLength ? `${title.slice(0, maximumTitleLength - 1)}…` : title;
}
