import { and, desc, eq, sql } from "drizzle-orm";
import type { MetadataDatabase } from "./metadata-database";
import { type VerifiedExampleRow, verifiedExamples } from "./schema/verified-examples";

/** How a pair became verified. */
export type VerifiedExampleSource = "accepted" | "corrected" | "admin";

export interface NewVerifiedExample {
  readonly dataSource: string;
  readonly question: string;
  readonly sql: string;
  readonly source: VerifiedExampleSource;
  readonly verifiedBy: string;
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Verified question–SQL pairs per data source (`host:port/database`) in the metadata store. */
export class VerifiedExampleStore {
  constructor(private readonly database: MetadataDatabase) {}

  /** Adds a pair; the same question on the same data source replaces the earlier SQL. */
  async save(example: NewVerifiedExample): Promise<VerifiedExampleRow> {
    const question = example.question.trim();
    const [row] = await this.database
      .insert(verifiedExamples)
      .values({ ...example, question, sql: example.sql.trim() })
      .onConflictDoUpdate({
        target: [verifiedExamples.dataSource, verifiedExamples.question],
        set: {
          sql: example.sql.trim(),
          source: example.source,
          verifiedBy: example.verifiedBy,
          updatedAt: sql`now()`,
        },
      })
      .returning();
    return row!;
  }

  /** The data source's pairs, most recently changed first (at most `limit`, default 500). */
  list(dataSource: string, limit = 500): Promise<VerifiedExampleRow[]> {
    return this.database
      .select()
      .from(verifiedExamples)
      .where(eq(verifiedExamples.dataSource, dataSource))
      .orderBy(desc(verifiedExamples.updatedAt))
      .limit(limit);
  }

  /** Changes a pair's question and SQL; undefined when no such pair on this data source. */
  async update(
    dataSource: string,
    id: string,
    change: { readonly question: string; readonly sql: string; readonly verifiedBy: string },
  ): Promise<VerifiedExampleRow | undefined> {
    if (!uuidPattern.test(id)) return undefined;
    const [row] = await this.database
      .update(verifiedExamples)
      .set({
        question: change.question.trim(),
        sql: change.sql.trim(),
        source: "admin",
        verifiedBy: change.verifiedBy,
        updatedAt: sql`now()`,
      })
      .where(and(eq(verifiedExamples.id, id), eq(verifiedExamples.dataSource, dataSource)))
      .returning();
    return row;
  }

  /** Deletes a pair; false when no such pair on this data source. */
  async delete(dataSource: string, id: string): Promise<boolean> {
    if (!uuidPattern.test(id)) return false;
    const rows = await this.database
      .delete(verifiedExamples)
      .where(and(eq(verifiedExamples.id, id), eq(verifiedExamples.dataSource, dataSource)))
      .returning({ id: verifiedExamples.id });
    return rows.length > 0;
  }
}
