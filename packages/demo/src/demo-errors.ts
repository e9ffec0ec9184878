import { NlqError } from "@nlq/engine";

/** Demo tables already exist in the target schema and `replace` was not set. SQLSTATE 42P07 (duplicate_table). */
export class DemoTablesExistError extends NlqError {
  readonly schema: string;
  readonly tables: readonly string[];
  constructor(options: { schema: string; tables: readonly string[] }) {
    super(
      `demo tables already exist in schema "${options.schema}": ${options.tables.join(", ")}; load into another schema or pass replace: true (--replace) to drop and recreate them`,
      { code: "42P07" },
    );
    this.schema = options.schema;
    this.tables = options.tables;
  }
}
