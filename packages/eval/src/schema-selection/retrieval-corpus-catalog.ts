import type { Catalog, SchemaColumn, TableInfo } from "@nlq/engine";
import { inferKeyLinks } from "@nlq/engine";

type ForeignKey = TableInfo["foreignKeys"][number];

/** Schema of corpus columns without a `db`. */
const defaultSchema = "public";

/**
 * An in-memory catalog of a CRUSH4SQL-format corpus (BirdUnion: no database exists, only `db.table.column` names and a
 * few descriptions): one schema per `db`, tables and columns in corpus order, `dataType` `text` (the corpus has no
 * types), descriptions as column comments, no primary keys, and foreign keys inferred as the retrieval benchmark does
 * (`inferKeyLinks`: same key-like column name across tables of a database, `<table>_id` → `<table>.id`), one single-column
 * key per link. CRUSH's schema graph built from these keys (`catalogSchemaColumns`) has exactly the retrieval
 * benchmark's links.
 */
export function catalogFromRetrievalCorpus(corpus: readonly SchemaColumn[]): Catalog {
  const tables = new Map<
    string,
    { schema: string; name: string; columns: SchemaColumn[]; foreignKeys: ForeignKey[] }
  >();
  const tableOf = corpus.map((column) => {
    const schema = column.database ?? defaultSchema;
    const key = `${schema}.${column.table}`;
    let table = tables.get(key);
    if (!table) {
      table = { schema, name: column.table, columns: [], foreignKeys: [] };
      tables.set(key, table);
    }
    if (!table.columns.some((existing) => existing.column === column.column)) table.columns.push(column);
    return table;
  });
  for (const [position, link] of inferKeyLinks(corpus).entries()) {
    const from = corpus[link.from]!;
    const to = corpus[link.to]!;
    const target = tableOf[link.to]!;
    tableOf[link.from]!.foreignKeys.push({
      name: `inferred_${position}`,
      columns: [from.column],
      referencedSchema: target.schema,
      referencedTable: target.name,
      referencedColumns: [to.column],
    });
  }
  return {
    tables: [...tables.values()].map(
      (table): TableInfo => ({
        schema: table.schema,
        name: table.name,
        kind: "table",
        comment: null,
        columns: table.columns.map((column) => ({
          name: column.column,
          dataType: "text",
          nullable: true,
          comment: column.description ?? null,
        })),
        primaryKey: [],
        foreignKeys: table.foreignKeys,
      }),
    ),
  };
}
