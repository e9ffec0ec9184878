import { NlqError } from "@nlq/engine";
import { and, desc, eq, gte, inArray } from "drizzle-orm";
import type { MetadataDatabase } from "../metadata/metadata-database";
import { type QuestionAuditRow, questionAudit } from "../metadata/schema/question-audit";
import type { RoleAuthority } from "./role-authority";

/** What to list, besides who asks (`UncheckedAuditEntriesOptions` with the role chosen for the caller). */
interface AuditEntriesFilter {
  /**
   * `host:port/database`: entries of this data source only; several names of one database (the URL's host, the address
   * the server reports) match any of them.
   */
  readonly dataSource: string | readonly string[];
  /** Entries asked at or after this time. Default: all. */
  readonly since?: Date;
  /** Entries of this surface only (`proxy`, `web`, `mcp`, `cli`). Default: all. */
  readonly surface?: string;
  /** Most entries, newest first. */
  readonly limit: number;
}

export interface AuditEntriesOptions extends AuditEntriesFilter {
  /**
   * Who is listing, as PostgreSQL says on a connection that role authenticated (`roleAuthority`): its login role and
   * whether it is an nlq administrator. Never a name a client merely claims.
   */
  readonly asking: Pick<RoleAuthority, "role" | "administrator">;
  /**
   * Whose entries. An administrator: one role's, or every role's when undefined. Anyone else: their own only (the
   * default); naming another role is refused with `AuditAccessError`.
   */
  readonly role?: string;
}

const auditAccessErrorMarker = Symbol.for("nlq.error.AuditAccessError");

/** A role that is not an administrator asked for another role's entries. SQLSTATE 42501 (insufficient privilege). */
export class AuditAccessError extends NlqError {
  readonly [auditAccessErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is AuditAccessError {
    return NlqError.hasMarker(error, auditAccessErrorMarker);
  }

  /** The asking role. */
  readonly role: string;
  /** The role whose entries it asked for. */
  readonly asked: string;
  constructor(role: string, asked: string) {
    super(
      `${role} may list only its own entries, not ${asked}'s: that needs an administrator (a superuser or a member of NLQ_WEB_EXAMPLE_ADMIN_ROLE)`,
      { code: "42501" },
    );
    this.role = role;
    this.asked = asked;
  }
}

/**
 * Audit entries of one data source, newest first, as `options.asking` may see them: an administrator every role's (or
 * one role's), anyone else their own only; a non-administrator naming another role gets `AuditAccessError`. The one
 * listing the package exports (`nlq log` uses it; a surface that shows the trail must too), so the rule is enforced
 * here rather than by each caller.
 */
export async function auditEntries(
  database: MetadataDatabase,
  options: AuditEntriesOptions,
): Promise<QuestionAuditRow[]> {
  const { asking, role, ...filter } = options;
  if (!asking.administrator && role !== undefined && role !== asking.role) {
    throw new AuditAccessError(asking.role, role);
  }
  return uncheckedAuditEntries(database, { ...filter, role: asking.administrator ? role : asking.role });
}

export interface UncheckedAuditEntriesOptions extends AuditEntriesFilter {
  /** Whose entries: a role name for that role's own, `undefined` for every role's. */
  readonly role: string | undefined;
}

/**
 * The query behind `auditEntries`, without asking who lists: for tests that check what was recorded
 * (`@nlq/adapters/testing`). Surfaces use `auditEntries`.
 */
export async function uncheckedAuditEntries(
  database: MetadataDatabase,
  options: UncheckedAuditEntriesOptions,
): Promise<QuestionAuditRow[]> {
  const dataSources = typeof options.dataSource === "string" ? [options.dataSource] : [...options.dataSource];
  const conditions = [inArray(questionAudit.dataSource, dataSources)];
  if (options.role !== undefined) conditions.push(eq(questionAudit.role, options.role));
  if (options.since !== undefined) conditions.push(gte(questionAudit.askedAt, options.since));
  if (options.surface !== undefined) conditions.push(eq(questionAudit.surface, options.surface));
  return database
    .select()
    .from(questionAudit)
    .where(and(...conditions))
    .orderBy(desc(questionAudit.askedAt), desc(questionAudit.id))
    .limit(Math.max(0, Math.floor(options.limit)));
}
