/**
 * Parses the MySQL-dialect DDL of the Spider warehouse (`CREATE TABLE `db`.`table` (...);` with column
 * definitions, PRIMARY KEY, FOREIGN KEY ... REFERENCES, UNIQUE and INDEX clauses) into plain values.
 * Pure; anything it does not understand is returned in `unparsed` so the loader can report it.
 */

export type MysqlColumn = {
  readonly name: string;
  /** The type as written, upper-cased, e.g. `VARCHAR(255)`, `INT(11)`, `DECIMAL(19,4)`. */
  readonly type: string;
  readonly notNull: boolean;
  /** The DEFAULT expression as written (`'0'`, `0`, `CURRENT_TIMESTAMP`); `undefined` for none or `DEFAULT NULL`. */
  readonly defaultExpression: string | undefined;
  readonly autoIncrement: boolean;
};

export type MysqlForeignKey = {
  readonly columns: string[];
  readonly referencedDatabase: string | undefined;
  readonly referencedTable: string;
  readonly referencedColumns: string[];
};

export type MysqlTable = {
  readonly database: string | undefined;
  readonly name: string;
  readonly columns: MysqlColumn[];
  readonly primaryKey: string[];
  readonly uniqueKeys: string[][];
  readonly indexes: { readonly name: string | undefined; readonly columns: string[] }[];
  readonly foreignKeys: MysqlForeignKey[];
};

export type MysqlSchema = { readonly tables: MysqlTable[]; readonly unparsed: string[] };

const createTablePattern =
  /CREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?((?:`[^`]+`|\w+)(?:\s*\.\s*(?:`[^`]+`|\w+))?)\s*\(/gi;

export function parseMysqlDdl(sql: string): MysqlSchema {
  const text = stripComments(sql);
  const tables: MysqlTable[] = [];
  const unparsed: string[] = [];
  createTablePattern.lastIndex = 0;
  for (let match = createTablePattern.exec(text); match !== null; match = createTablePattern.exec(text)) {
    const bodyStart = createTablePattern.lastIndex;
    const bodyEnd = matchingParenthesis(text, bodyStart - 1);
    const names = splitQualifiedName(match[1]!);
    const table = parseTableBody(names.database, names.name, text.slice(bodyStart, bodyEnd), unparsed);
    tables.push(table);
    createTablePattern.lastIndex = bodyEnd + 1;
  }
  return { tables, unparsed };
}

const constraintName = String.raw`(?:CONSTRAINT\s+(?:\`[^\`]+\`|\w+)\s+)?`;
const qualifiedName = String.raw`((?:\`[^\`]+\`|\w+)(?:\s*\.\s*(?:\`[^\`]+\`|\w+))?)`;
const primaryKeyPattern = new RegExp(String.raw`^${constraintName}PRIMARY\s+KEY\s*\(([^)]*)\)`, "i");
const foreignKeyPattern = new RegExp(
  String.raw`^${constraintName}FOREIGN\s+KEY\s*(?:\`[^\`]+\`\s*)?\(([^)]*)\)\s*REFERENCES\s+${qualifiedName}\s*\(([^)]*)\)`,
  "i",
);
const uniquePattern = new RegExp(
  String.raw`^${constraintName}UNIQUE\s*(?:KEY\s+|INDEX\s+)?(?:(?:\`[^\`]+\`|\w+)\s*)?\(([^)]*)\)`,
  "i",
);
const indexPattern = /^(?:INDEX|KEY)\s+(`[^`]+`|\w+)?\s*\(([^)]*)\)/i;
const columnPattern = /^(`[^`]+`|\w+)\s+(.+)$/s;

function parseTableBody(database: string | undefined, name: string, body: string, unparsed: string[]): MysqlTable {
  const table = {
    database,
    name,
    columns: [] as MysqlColumn[],
    primaryKey: [] as string[],
    uniqueKeys: [] as string[][],
    indexes: [] as { name: string | undefined; columns: string[] }[],
    foreignKeys: [] as MysqlForeignKey[],
  };
  for (const item of splitTopLevel(body, ",")) {
    const definition = item.trim();
    if (definition === "") continue;
    const primaryKey = primaryKeyPattern.exec(definition);
    const foreignKey = foreignKeyPattern.exec(definition);
    const unique = uniquePattern.exec(definition);
    const index = indexPattern.exec(definition);
    const column = columnPattern.exec(definition);
    if (primaryKey !== null) {
      table.primaryKey = identifierList(primaryKey[1]!);
    } else if (foreignKey !== null) {
      const referenced = splitQualifiedName(foreignKey[2]!);
      table.foreignKeys.push({
        columns: identifierList(foreignKey[1]!),
        referencedDatabase: referenced.database,
        referencedTable: referenced.name,
        referencedColumns: identifierList(foreignKey[3]!),
      });
    } else if (unique !== null) {
      table.uniqueKeys.push(identifierList(unique[1]!));
    } else if (index !== null) {
      table.indexes.push({
        name: index[1] === undefined ? undefined : unquote(index[1]),
        columns: identifierList(index[2]!),
      });
    } else if (column !== null) {
      const parsed = parseColumn(unquote(column[1]!), column[2]!);
      if (parsed === undefined) unparsed.push(`${name}: ${definition}`);
      else {
        table.columns.push(parsed.column);
        if (parsed.primaryKey) table.primaryKey = [parsed.column.name];
        if (parsed.unique) table.uniqueKeys.push([parsed.column.name]);
      }
    } else {
      unparsed.push(`${name}: ${definition}`);
    }
  }
  return table;
}

const typePattern =
  /^([A-Za-z]+(?:\s+(?:PRECISION|VARYING))?)\s*(\(\s*[^)]*\))?((?:\s+(?:UNSIGNED|SIGNED|ZEROFILL))*)/i;

function parseColumn(
  name: string,
  definition: string,
): { column: MysqlColumn; primaryKey: boolean; unique: boolean } | undefined {
  const typeMatch = typePattern.exec(definition.trim());
  if (typeMatch === null) return undefined;
  const type = [
    typeMatch[1]!.replace(/\s+/g, " ").toUpperCase(),
    (typeMatch[2] ?? "").replace(/\s+/g, "").toUpperCase(),
    typeMatch[3]!.replace(/\s+/g, " ").toUpperCase(),
  ].join("");
  let rest = definition.trim().slice(typeMatch[0].length);
  let defaultExpression: string | undefined;
  const defaultMatch = /\bDEFAULT\s+('(?:[^'\\]|''|\\.)*'|"(?:[^"\\]|\\.)*"|[^\s,]+(?:\(\))?)/i.exec(rest);
  if (defaultMatch !== null) {
    const expression = defaultMatch[1]!;
    defaultExpression = /^NULL$/i.test(expression) ? undefined : expression;
    rest = rest.slice(0, defaultMatch.index) + rest.slice(defaultMatch.index + defaultMatch[0].length);
  }
  return {
    column: {
      name,
      type,
      notNull: /\bNOT\s+NULL\b/i.test(rest),
      defaultExpression,
      autoIncrement: /\bAUTO_INCREMENT\b/i.test(rest),
    },
    primaryKey: /\bPRIMARY\s+KEY\b/i.test(rest),
    unique: /\bUNIQUE\b/i.test(rest),
  };
}

function stripComments(sql: string): string {
  return sql.replace(/\/\*[\s\S]*?\*\//g, " ").replace(/(^|\n)\s*(--|#)[^\n]*/g, "$1");
}

/** Index of the `)` closing the `(` at `open`, skipping quoted text. */
function matchingParenthesis(text: string, open: number): number {
  let depth = 0;
  let quote: string | undefined;
  for (let position = open; position < text.length; position++) {
    const character = text[position]!;
    if (quote !== undefined) {
      if (character === quote) quote = undefined;
      continue;
    }
    if (character === "`" || character === "'" || character === '"') quote = character;
    else if (character === "(") depth++;
    else if (character === ")" && --depth === 0) return position;
  }
  return text.length;
}

function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let start = 0;
  for (let position = 0; position < text.length; position++) {
    const character = text[position]!;
    if (quote !== undefined) {
      if (character === quote) quote = undefined;
      continue;
    }
    if (character === "`" || character === "'" || character === '"') quote = character;
    else if (character === "(") depth++;
    else if (character === ")") depth--;
    else if (character === separator && depth === 0) {
      parts.push(text.slice(start, position));
      start = position + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

function splitQualifiedName(qualified: string): { database: string | undefined; name: string } {
  const parts = splitTopLevel(qualified, ".").map((part) => unquote(part.trim()));
  return parts.length === 2 ? { database: parts[0], name: parts[1]! } : { database: undefined, name: parts[0]! };
}

function identifierList(list: string): string[] {
  return splitTopLevel(list, ",").map((part) => unquote(part.trim().replace(/\s*\(\d+\)$/, "")));
}

function unquote(identifier: string): string {
  return identifier.startsWith("`") && identifier.endsWith("`")
    ? identifier.slice(1, -1).replace(/``/g, "`")
    : identifier;
}
