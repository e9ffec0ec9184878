import { NlqError } from "@nlq/engine";

const demoTablesExistErrorMarker = Symbol.for("nlq.error.DemoTablesExistError");

/** Demo tables already exist in the target schema and `replace` was not set. SQLSTATE 42P07 (duplicate_table). */
export class DemoTablesExistError extends NlqError {
  readonly [demoTablesExistErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is DemoTablesExistError {
    return NlqError.hasMarker(error, demoTablesExistErrorMarker);
  }

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
