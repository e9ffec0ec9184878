import { createHash } from "node:crypto";
import type { TableInfo } from "@nlq/engine";

/** Rounds a row estimate to two significant digits, so small changes (autovacuum noise) do not trigger re-indexing. */
export function roundRowEstimate(rows: number | null): number | null {
  if (rows === null || !Number.isFinite(rows) || rows < 0) return null;
  if (rows < 100) return Math.round(rows);
  const magnitude = 10 ** (Math.floor(Math.log10(rows)) - 1);
  return Math.round(rows / magnitude) * magnitude;
}

/**
 * Fingerprint of one table for incremental indexing: kind, description, columns (names, types, nullability,
 * descriptions, enum labels), keys and the rounded row estimate. Sample values are not part of it.
 */
export function tableFingerprint(table: TableInfo, rowEstimate: number | null): string {
  const shape = {
    kind: table.kind,
    comment: table.comment,
    columns: table.columns.map((column) => [
      column.name,
      column.dataType,
      column.nullable,
      column.comment,
      column.enumValues ?? null,
    ]),
    primaryKey: table.primaryKey,
    foreignKeys: table.foreignKeys,
    rows: roundRowEstimate(rowEstimate),
  };
  return createHash("sha256").update(JSON.stringify(shape)).digest("hex").slice(0, 32);
}
