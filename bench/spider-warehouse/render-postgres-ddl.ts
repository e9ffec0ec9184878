import { alwaysQuoteIdentifier } from "@nlq/engine";
import type { MysqlForeignKey, MysqlTable } from "./parse-mysql-ddl";
import { isTextualType, translateMysqlType } from "./translate-mysql-type";

/** A column as loaded into PostgreSQL. */
export type PostgresColumn = {
  readonly sourceName: string;
  readonly name: string;
  readonly type: string;
  /** Empty CSV fields load as '' for text columns and as NULL for every other type. */
  readonly textual: boolean;
};

/** A table as loaded: its PostgreSQL names, the CREATE TABLE statement, indexes and foreign keys to add later. */
export type PostgresTable = {
  readonly sourceName: string;
  readonly name: string;
  readonly columns: PostgresColumn[];
  readonly createStatement: string;
  readonly indexStatements: string[];
  readonly foreignKeys: PlannedForeignKey[];
};

export type PlannedForeignKey = {
  /** `table (a, b) → other (x, y)` with PostgreSQL names, for reports. */
  readonly description: string;
  /** The ALTER TABLE statement, or `undefined` when the DDL references a table or column that does not exist. */
  readonly statement: string | undefined;
  /** Why the key cannot be created (unknown table or column). */
  readonly problem: string | undefined;
};

export type PostgresSchemaPlan = {
  readonly schema: string;
  readonly tables: PostgresTable[];
  /** Problems found while translating (unknown types fell back to text). */
  readonly warnings: string[];
};

/**
 * Names are lower-cased (so `SELECT * FROM singer` works as in MySQL) unless two names of the same
 * scope would then collide; those keep their original spelling. Returns source name → PostgreSQL name.
 */
export function lowerCaseNames(names: readonly string[]): Map<string, string> {
  const lowered = new Map<string, number>();
  for (const name of names) lowered.set(name.toLowerCase(), (lowered.get(name.toLowerCase()) ?? 0) + 1);
  return new Map(names.map((name) => [name, lowered.get(name.toLowerCase())! > 1 ? name : name.toLowerCase()]));
}

/** Key of `typeOverrides`: source table and column names. */
export function columnKey(table: string, column: string): string {
  return `${table}\u0000${column}`;
}

/**
 * Plans the PostgreSQL schema for one Spider database (pure: statements as text). `typeOverrides`
 * (by `columnKey(table, column)` of source names) replaces translated types, e.g. widenings the data needs.
 */
export function planPostgresSchema(
  schemaName: string,
  tables: readonly MysqlTable[],
  typeOverrides: ReadonlyMap<string, string> = new Map(),
): PostgresSchemaPlan {
  const warnings: string[] = [];
  const tableNames = lowerCaseNames(tables.map((table) => table.name));
  const tableByLowerName = new Map(tables.map((table) => [table.name.toLowerCase(), table]));
  const columnNamesByTable = new Map(
    tables.map((table) => [table.name, lowerCaseNames(table.columns.map((column) => column.name))]),
  );
  const schema = alwaysQuoteIdentifier(schemaName);
  const qualified = (table: MysqlTable) => `${schema}.${alwaysQuoteIdentifier(tableNames.get(table.name)!)}`;
  /** Resolves a column reference case-insensitively (MySQL column names are case-insensitive). */
  const columnName = (table: MysqlTable, name: string) => {
    const names = columnNamesByTable.get(table.name)!;
    const exact = names.get(name);
    if (exact !== undefined) return exact;
    const source = table.columns.find((column) => column.name.toLowerCase() === name.toLowerCase());
    return source === undefined ? undefined : names.get(source.name);
  };

  const planned = tables.map((table): PostgresTable => {
    const names = columnNamesByTable.get(table.name)!;
    const columns = table.columns.map((column): PostgresColumn => {
      let type = typeOverrides.get(columnKey(table.name, column.name)) ?? translateMysqlType(column.type);
      if (type === undefined) {
        warnings.push(`${table.name}.${column.name}: unknown type ${column.type}, loaded as text`);
        type = "text";
      }
      return { sourceName: column.name, name: names.get(column.name)!, type, textual: isTextualType(type) };
    });
    const definitions = table.columns.map((column, position) => {
      const target = columns[position]!;
      const parts = [alwaysQuoteIdentifier(target.name), target.type];
      if (column.notNull) parts.push("NOT NULL");
      const defaultExpression = translateDefault(column.defaultExpression);
      if (defaultExpression !== undefined) parts.push(`DEFAULT ${defaultExpression}`);
      else if (column.defaultExpression !== undefined) {
        warnings.push(`${table.name}.${column.name}: DEFAULT ${column.defaultExpression} not translated, dropped`);
      }
      return parts.join(" ");
    });
    const keyList = (keyColumns: readonly string[]) =>
      keyColumns.map((name) => alwaysQuoteIdentifier(columnName(table, name) ?? name)).join(", ");
    const unknownKeyColumns = (keyColumns: readonly string[]) =>
      keyColumns.filter((name) => columnName(table, name) === undefined);
    for (const [label, keyColumns] of [
      ["PRIMARY KEY", table.primaryKey],
      ...table.uniqueKeys.map((unique) => ["UNIQUE", unique] as const),
    ] as const) {
      if (keyColumns.length === 0) continue;
      const unknown = unknownKeyColumns(keyColumns);
      if (unknown.length > 0)
        warnings.push(`${table.name}: ${label} on unknown column(s) ${unknown.join(", ")} skipped`);
      else definitions.push(`${label} (${keyList(keyColumns)})`);
    }
    const indexStatements = table.indexes
      .filter((index) => unknownKeyColumns(index.columns).length === 0)
      .map((index) => `CREATE INDEX ON ${qualified(table)} (${keyList(index.columns)})`);
    const foreignKeys = table.foreignKeys.map((foreignKey) =>
      planForeignKey(table, foreignKey, { tableByLowerName, tableNames, qualified, columnName }),
    );
    return {
      sourceName: table.name,
      name: tableNames.get(table.name)!,
      columns,
      createStatement: `CREATE TABLE ${qualified(table)} (\n  ${definitions.join(",\n  ")}\n)`,
      indexStatements,
      foreignKeys,
    };
  });
  return { schema: schemaName, tables: planned, warnings };
}

function planForeignKey(
  table: MysqlTable,
  foreignKey: MysqlForeignKey,
  context: {
    tableByLowerName: Map<string, MysqlTable>;
    tableNames: Map<string, string>;
    qualified: (table: MysqlTable) => string;
    columnName: (table: MysqlTable, name: string) => string | undefined;
  },
): PlannedForeignKey {
  const referenced = context.tableByLowerName.get(foreignKey.referencedTable.toLowerCase());
  const sourceNames = foreignKey.columns.map((name) => context.columnName(table, name));
  const targetNames =
    referenced === undefined ? [] : foreignKey.referencedColumns.map((name) => context.columnName(referenced, name));
  const description = `${context.tableNames.get(table.name)} (${foreignKey.columns.join(", ")}) → ${
    referenced === undefined ? foreignKey.referencedTable : context.tableNames.get(referenced.name)
  } (${foreignKey.referencedColumns.join(", ")})`;
  const unknown = (names: (string | undefined)[], spelled: string[]) =>
    spelled.filter((_, position) => names[position] === undefined);
  let problem: string | undefined;
  if (referenced === undefined) problem = `referenced table ${foreignKey.referencedTable} does not exist`;
  else if (unknown(sourceNames, foreignKey.columns).length > 0) {
    problem = `column(s) ${unknown(sourceNames, foreignKey.columns).join(", ")} do not exist`;
  } else if (unknown(targetNames, foreignKey.referencedColumns).length > 0) {
    problem = `referenced column(s) ${unknown(targetNames, foreignKey.referencedColumns).join(", ")} do not exist`;
  } else if (foreignKey.columns.length !== foreignKey.referencedColumns.length) {
    problem = "column counts differ";
  }
  if (problem !== undefined || referenced === undefined) return { description, statement: undefined, problem };
  const list = (names: (string | undefined)[]) => names.map((name) => alwaysQuoteIdentifier(name!)).join(", ");
  return {
    description,
    statement: `ALTER TABLE ${context.qualified(table)} ADD FOREIGN KEY (${list(sourceNames)}) REFERENCES ${context.qualified(referenced)} (${list(targetNames)})`,
    problem: undefined,
  };
}

/** MySQL DEFAULT expressions of the Spider DDL: quoted literals, numbers and CURRENT_TIMESTAMP. */
function translateDefault(expression: string | undefined): string | undefined {
  if (expression === undefined) return undefined;
  if (/^'.*'$/s.test(expression)) return `'${expression.slice(1, -1).replace(/\\'/g, "''").replace(/\\\\/g, "\\")}'`;
  if (/^"(.*)"$/s.test(expression)) return `'${expression.slice(1, -1).replace(/'/g, "''")}'`;
  if (/^-?\d+(\.\d+)?$/.test(expression)) return expression;
  if (/^CURRENT_TIMESTAMP(\(\))?$/i.test(expression)) return "CURRENT_TIMESTAMP";
  if (/^(TRUE|FALSE)$/i.test(expression)) return expression.toUpperCase();
  return undefined;
}
