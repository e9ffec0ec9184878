import { and, desc, eq, gte, inArray } from "drizzle-orm";
import type { MetadataDatabase } from "../metadata/metadata-database";
import { type QuestionAuditRow, questionAudit } from "../metadata/schema/question-audit";

export interface AuditEntriesOptions {
  /**
   * `host:port/database`: entries of this data source only; several names of one database (the URL's host, the address
   * the server reports) match any of them.
   */
  readonly dataSource: string | readonly string[];
  /**
   * Whose entries: a role name for that role's own, `undefined` for every role's (administrators only — the caller
   * decides, e.g. with `roleAuthority`).
   */
  readonly role: string | undefined;
  /** Entries asked at or after this time. Default: all. */
  readonly since?: Date;
  /** Entries of this surface only (`proxy`, `web`, `mcp`, `cli`). Default: all. */
  readonly surface?: string;
  /** Most entries, newest first. */
  readonly limit: number;
}

/** Audit entries of one data source, newest first, for one role or (administrators) all. */
export async function auditEntries(
  database: MetadataDatabase,
  options: AuditEntriesOptions,
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
