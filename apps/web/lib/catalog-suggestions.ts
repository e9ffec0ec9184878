/** Most suggestion chips. */
const maximumSuggestions = 6;

/**
 * A table the role may read, with whether it has a date/time column: what a suggested question is about (not the
 * schema page's `ReadableTable` of `readable-schema.ts`, which lists columns).
 */
export interface SuggestedTable {
  readonly name: string;
  readonly hasTime: boolean;
}

/** Tables the asking role may read, largest first (`reltuples`), at most `limit`; asked on the role's own connection. */
export const readableTablesSql = `
SELECT c.relname,
       EXISTS (SELECT FROM pg_catalog.pg_attribute a
               WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
                 AND a.atttypid IN (1082, 1114, 1184)) AS has_time
FROM pg_catalog.pg_class c
JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
WHERE c.relkind IN ('r', 'v', 'm', 'p', 'f')
  AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'
  AND pg_catalog.has_table_privilege(c.oid, 'SELECT')
ORDER BY c.reltuples DESC, c.relname
LIMIT $1`;

/** Plain-language questions about the role's tables: "how many orders are there?", "how many orders per month?". */
export function questionsOfTables(tables: readonly SuggestedTable[]): string[] {
  const questions: string[] = [];
  for (const table of tables) {
    const noun = table.name.replaceAll("_", " ");
    questions.push(`how many ${noun} are there?`);
    if (table.hasTime) questions.push(`how many ${noun} per month?`);
  }
  return questions;
}

/**
 * The suggestion chips: with a scripted model, the questions its fixture has recorded answers for (`recordedQuestions`,
 * read once per page by `recordedQuestions()`; nothing else can be answered); otherwise the data source's verified
 * examples first, then questions about the tables the role may read, without duplicates.
 */
export function suggestionsFor(options: {
  /** A scripted model's recorded questions; undefined when the model is not scripted. */
  readonly recordedQuestions: readonly string[] | undefined;
  readonly verifiedQuestions: readonly string[];
  readonly tables: readonly SuggestedTable[];
}): string[] {
  if (options.recordedQuestions !== undefined) return options.recordedQuestions.slice(0, maximumSuggestions);
  const seen = new Set<string>();
  const questions: string[] = [];
  for (const question of [...options.verifiedQuestions, ...questionsOfTables(options.tables)]) {
    const key = question.trim().toLowerCase();
    if (key === "" || seen.has(key)) continue;
    seen.add(key);
    questions.push(question.trim());
  }
  return questions.slice(0, maximumSuggestions);
}
