const plainIdentifier = /^[a-z_][a-z0-9_$]*$/;
const reservedWords = new Set([
  "all",
  "analyse",
  "analyze",
  "and",
  "any",
  "array",
  "as",
  "asc",
  "asymmetric",
  "both",
  "case",
  "cast",
  "check",
  "collate",
  "column",
  "constraint",
  "create",
  "current_catalog",
  "current_date",
  "current_role",
  "current_time",
  "current_timestamp",
  "current_user",
  "default",
  "deferrable",
  "desc",
  "distinct",
  "do",
  "else",
  "end",
  "except",
  "false",
  "fetch",
  "for",
  "foreign",
  "from",
  "grant",
  "group",
  "having",
  "in",
  "initially",
  "intersect",
  "into",
  "lateral",
  "leading",
  "limit",
  "localtime",
  "localtimestamp",
  "not",
  "null",
  "offset",
  "on",
  "only",
  "or",
  "order",
  "placing",
  "primary",
  "references",
  "returning",
  "select",
  "session_user",
  "some",
  "symmetric",
  "system_user",
  "table",
  "then",
  "to",
  "trailing",
  "true",
  "union",
  "unique",
  "user",
  "using",
  "variadic",
  "when",
  "where",
  "window",
  "with",
]);

/** Quotes a PostgreSQL identifier only when needed (upper case, special characters, reserved words). */
export function quoteIdentifier(name: string): string {
  if (plainIdentifier.test(name) && !reservedWords.has(name)) return name;
  return alwaysQuoteIdentifier(name);
}

/** Double-quotes a PostgreSQL identifier whatever it is (`"name"`, inner `"` doubled), so its spelling is kept exactly. */
export function alwaysQuoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** `schema.table`, leaving out `public`. */
export function qualifiedName(schema: string, name: string): string {
  return schema === "public" ? quoteIdentifier(name) : `${quoteIdentifier(schema)}.${quoteIdentifier(name)}`;
}
