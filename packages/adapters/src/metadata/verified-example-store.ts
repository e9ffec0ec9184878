import { and, desc, eq, ne, or, sql } from "drizzle-orm";
import type { MetadataDatabase } from "./metadata-database";
import { type VerifiedExampleRow, verifiedExamples } from "./schema/verified-examples";

/**
 * How a pair became verified: `accepted` (thumbs up), `corrected` (edited SQL), `admin` (edited by an administrator),
 * `picked` (a reading the user confirmed with "use this from now on", `confirmReading`). `unconfirmed` marks what
 * migration 0010 could not tell apart (a turnless `accepted` pair: an automatically saved pick, or an old thumbs-up):
 * kept in the table, never offered (`visibleTo` leaves it out).
 */
export type VerifiedExampleSource = "accepted" | "corrected" | "admin" | "picked" | "unconfirmed";

export interface NewVerifiedExample {
  readonly dataSource: string;
  readonly question: string;
  readonly sql: string;
  readonly source: VerifiedExampleSource;
  /** The role that verified it: its owner. */
  readonly verifiedBy: string;
  /**
   * True for every role of the data source (an administrator's pair); false (default) for `verifiedBy` only. The
   * caller decides who is an administrator; the store only keeps the answer.
   */
  readonly sharedWithAllRoles?: boolean;
  /** The web turn whose thumbs-up saved it, so that a thumbs-down on that turn retracts it. */
  readonly turnId?: string;
  /** For `picked` pairs: "picked from 3 readings by alice". Default: none. */
  readonly provenance?: string;
}

/** Who is acting on a pair: the signed-in role and whether it is an administrator. */
export interface ExampleEditor {
  readonly role: string;
  readonly administrator: boolean;
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Verified question–SQL pairs per data source (`host:port/database`) in the metadata store. Each pair belongs to the
 * role that verified it; a pair is visible to its owner, and to every role when an administrator shared it. Which
 * visible pairs a role may actually be shown is decided against the target database by `readableExamples`
 * (@nlq/engine) — this store only knows owners.
 */
export class VerifiedExampleStore {
  constructor(private readonly database: MetadataDatabase) {}

  /** Adds a pair; the same question by the same role on the same data source replaces that role's earlier SQL. */
  async save(example: NewVerifiedExample): Promise<VerifiedExampleRow> {
    const question = example.question.trim();
    const values = {
      dataSource: example.dataSource,
      question,
      sql: example.sql.trim(),
      source: example.source,
      verifiedBy: example.verifiedBy,
      sharedWithAllRoles: example.sharedWithAllRoles ?? false,
      turnId: example.turnId !== undefined && uuidPattern.test(example.turnId) ? example.turnId : null,
      provenance: example.provenance?.trim() || null,
    };
    const [row] = await this.database
      .insert(verifiedExamples)
      .values(values)
      .onConflictDoUpdate({
        target: [verifiedExamples.dataSource, verifiedExamples.verifiedBy, verifiedExamples.question],
        set: {
          sql: values.sql,
          source: values.source,
          sharedWithAllRoles: values.sharedWithAllRoles,
          turnId: values.turnId,
          provenance: values.provenance,
          updatedAt: sql`now()`,
        },
      })
      .returning();
    return row!;
  }

  /**
   * The pairs of the data source `role` may be offered — its own and those shared with all roles, never an
   * `unconfirmed` one — most recently changed first (at most `limit`, default 500). Still to be checked against the database (`readableExamples`).
   */
  visibleTo(dataSource: string, role: string, limit = 500): Promise<VerifiedExampleRow[]> {
    return this.database
      .select()
      .from(verifiedExamples)
      .where(
        and(
          eq(verifiedExamples.dataSource, dataSource),
          visibleToRole(role),
          ne(verifiedExamples.source, "unconfirmed"),
        ),
      )
      .orderBy(desc(verifiedExamples.updatedAt))
      .limit(limit);
  }

  /**
   * Retracts what a thumbs-up on `turnId` saved: deletes `role`'s accepted pair that came from that turn (unless it
   * was edited since). Returns how many pairs were removed (0 or 1).
   */
  async retractAccepted(dataSource: string, role: string, turnId: string): Promise<number> {
    if (!uuidPattern.test(turnId)) return 0;
    const rows = await this.database
      .delete(verifiedExamples)
      .where(
        and(
          eq(verifiedExamples.dataSource, dataSource),
          eq(verifiedExamples.verifiedBy, role),
          eq(verifiedExamples.turnId, turnId),
          eq(verifiedExamples.source, "accepted"),
        ),
      )
      .returning({ id: verifiedExamples.id });
    return rows.length;
  }

  /**
   * Changes a pair's question and SQL: the owner may change its own pairs, an administrator also the shared ones.
   * The pair then belongs to `editor` (shared with all roles when `editor` is an administrator). Undefined when no
   * such pair on this data source, or `editor` may not change it.
   */
  async update(
    dataSource: string,
    id: string,
    change: { readonly question: string; readonly sql: string },
    editor: ExampleEditor,
  ): Promise<VerifiedExampleRow | undefined> {
    if (!uuidPattern.test(id)) return undefined;
    const [row] = await this.database
      .update(verifiedExamples)
      .set({
        question: change.question.trim(),
        sql: change.sql.trim(),
        source: editor.administrator ? "admin" : "corrected",
        verifiedBy: editor.role,
        sharedWithAllRoles: editor.administrator,
        turnId: null,
        provenance: null,
        updatedAt: sql`now()`,
      })
      .where(and(eq(verifiedExamples.id, id), eq(verifiedExamples.dataSource, dataSource), changeableBy(editor)))
      .returning();
    return row;
  }

  /** Deletes a pair `editor` may change (as `update`); false when there is no such pair. */
  async delete(dataSource: string, id: string, editor: ExampleEditor): Promise<boolean> {
    if (!uuidPattern.test(id)) return false;
    const rows = await this.database
      .delete(verifiedExamples)
      .where(and(eq(verifiedExamples.id, id), eq(verifiedExamples.dataSource, dataSource), changeableBy(editor)))
      .returning({ id: verifiedExamples.id });
    return rows.length > 0;
  }
}

function visibleToRole(role: string) {
  return or(eq(verifiedExamples.verifiedBy, role), eq(verifiedExamples.sharedWithAllRoles, true));
}

function changeableBy(editor: ExampleEditor) {
  return editor.administrator ? visibleToRole(editor.role) : eq(verifiedExamples.verifiedBy, editor.role);
}
