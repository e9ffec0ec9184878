import type { DemoColumn, DemoForeignKey, DemoTableDefinition } from "./demo-types";

/** Options of one column definition. */
interface ColumnOptions {
  /** Allow NULL. Default: false (NOT NULL). */
  readonly nullable?: boolean;
  /** Column-level UNIQUE. Default: false. */
  readonly unique?: boolean;
  /** CHECK expression. Default: none. */
  readonly check?: string;
}

/** A demo column; NOT NULL unless `nullable` is set. */
export function column(name: string, type: string, comment: string, options: ColumnOptions = {}): DemoColumn {
  return {
    name,
    type,
    nullable: options.nullable ?? false,
    comment,
    ...(options.unique ? { unique: true } : {}),
    ...(options.check === undefined ? {} : { check: options.check }),
  };
}

/** A single-column foreign key. */
export function references(columnName: string, referencedTable: string, referencedColumn: string): DemoForeignKey {
  return { columns: [columnName], referencedTable, referencedColumns: [referencedColumn] };
}

/** A table definition; `foreignKeys` and `checks` default to none. */
export function table(definition: {
  name: string;
  comment: string;
  columns: DemoColumn[];
  primaryKey: string[];
  foreignKeys?: DemoForeignKey[];
  checks?: string[];
}): DemoTableDefinition {
  return { ...definition, foreignKeys: definition.foreignKeys ?? [], checks: definition.checks ?? [] };
}
