import type { Catalog, TableInfo, TableKind } from "@nlq/engine";
import { and, asc, eq, inArray } from "drizzle-orm";
import type { MetadataDatabase } from "../metadata/metadata-database";
import { catalogColumns, catalogTables } from "../metadata/schema/catalog";
import type { ColumnStatistics } from "./table-statistics";

/** One table ready to be written: the catalog entry (with samples) plus statistics. */
export interface IndexedTable {
  readonly table: TableInfo;
  readonly fingerprint: string;
  readonly rowCount: number | null;
  readonly rowCountExact: boolean;
  readonly columnStatistics: ReadonlyMap<string, ColumnStatistics>;
  /** `provider:modelId` of the embedder that made the table's description vectors; null when none were made. */
  readonly embeddingModel: string | null;
}

/** Stored fingerprint of one table. */
export interface StoredTableFingerprint {
  readonly schema: string;
  readonly name: string;
  readonly fingerprint: string;
  /** The embedder of its description vectors (`embeddingModelIdentity`), null when none were made. */
  readonly embeddingModel: string | null;
}

/** Reads and writes a data source's indexed catalog in the metadata store (tables `catalog_tables`, `catalog_columns`). */
export class CatalogIndexStore {
  readonly #database: MetadataDatabase;

  constructor(database: MetadataDatabase) {
    this.#database = database;
  }

  async fingerprints(dataSourceId: string): Promise<StoredTableFingerprint[]> {
    const rows = await this.#database
      .select({
        schema: catalogTables.schemaName,
        name: catalogTables.tableName,
        fingerprint: catalogTables.fingerprint,
        embeddingModel: catalogTables.embeddingModel,
      })
      .from(catalogTables)
      .where(eq(catalogTables.dataSourceId, dataSourceId));
    return rows;
  }

  /** Records that a table's description vectors were made again, by `embeddingModel`, its fingerprint unchanged. */
  async setEmbeddingModel(
    dataSourceId: string,
    table: { readonly schema: string; readonly name: string },
    embeddingModel: string,
  ): Promise<void> {
    // `indexed_at` moves too: it is what tells the processes answering questions that the index changed.
    await this.#database
      .update(catalogTables)
      .set({ embeddingModel, indexedAt: new Date() })
      .where(isTable(dataSourceId, table));
  }

  /** The embedders that made a data source's description vectors (null for tables without vectors). */
  async embeddingModels(dataSourceId: string): Promise<Set<string | null>> {
    const rows = await this.#database
      .selectDistinct({ embeddingModel: catalogTables.embeddingModel })
      .from(catalogTables)
      .where(eq(catalogTables.dataSourceId, dataSourceId));
    return new Set(rows.map((row) => row.embeddingModel));
  }

  /** Replaces one table and its columns in one transaction (the commit point of incremental indexing). */
  async saveTable(dataSourceId: string, indexed: IndexedTable): Promise<void> {
    const { table } = indexed;
    await this.#database.transaction(async (transaction) => {
      await transaction.delete(catalogTables).where(isTable(dataSourceId, table));
      const [row] = await transaction
        .insert(catalogTables)
        .values({
          dataSourceId,
          schemaName: table.schema,
          tableName: table.name,
          kind: table.kind,
          description: table.comment,
          primaryKey: [...table.primaryKey],
          foreignKeys: table.foreignKeys.map((key) => ({
            ...key,
            columns: [...key.columns],
            referencedColumns: [...key.referencedColumns],
          })),
          rowCount: indexed.rowCount,
          rowCountExact: indexed.rowCountExact,
          fingerprint: indexed.fingerprint,
          embeddingModel: indexed.embeddingModel,
        })
        .returning({ id: catalogTables.id });
      if (table.columns.length === 0) return;
      await transaction.insert(catalogColumns).values(
        table.columns.map((column, position) => {
          const statistics = indexed.columnStatistics.get(column.name);
          return {
            tableId: row!.id,
            position,
            columnName: column.name,
            dataType: column.dataType,
            nullable: column.nullable,
            description: column.comment,
            enumValues: column.enumValues ? [...column.enumValues] : null,
            sampleValues: column.sampleValues ? [...column.sampleValues] : null,
            distinctCount: statistics?.distinctCount ?? null,
            nullFraction: statistics?.nullFraction ?? null,
          };
        }),
      );
    });
  }

  async deleteTables(dataSourceId: string, tables: readonly { schema: string; name: string }[]): Promise<void> {
    for (const table of tables) {
      await this.#database.delete(catalogTables).where(isTable(dataSourceId, table));
    }
  }

  /** The indexed catalog (all tables the indexing role could read), in schema/table/column order; empty when none. */
  async loadCatalog(dataSourceId: string): Promise<Catalog> {
    const tables = await this.#database
      .select()
      .from(catalogTables)
      .where(eq(catalogTables.dataSourceId, dataSourceId))
      .orderBy(asc(catalogTables.schemaName), asc(catalogTables.tableName));
    if (tables.length === 0) return { tables: [] };
    const columns = await this.#database
      .select()
      .from(catalogColumns)
      .where(
        inArray(
          catalogColumns.tableId,
          tables.map((table) => table.id),
        ),
      )
      .orderBy(asc(catalogColumns.tableId), asc(catalogColumns.position));
    const byTable = new Map<string, (typeof columns)[number][]>();
    for (const column of columns) {
      const list = byTable.get(column.tableId) ?? [];
      list.push(column);
      byTable.set(column.tableId, list);
    }
    return {
      tables: tables.map((table) => ({
        schema: table.schemaName,
        name: table.tableName,
        kind: table.kind as TableKind,
        comment: table.description,
        primaryKey: table.primaryKey,
        foreignKeys: table.foreignKeys,
        columns: (byTable.get(table.id) ?? []).map((column) => ({
          name: column.columnName,
          dataType: column.dataType,
          nullable: column.nullable,
          comment: column.description,
          ...(column.enumValues ? { enumValues: column.enumValues } : {}),
          ...(column.sampleValues && column.sampleValues.length > 0 ? { sampleValues: column.sampleValues } : {}),
        })),
      })),
    };
  }
}

/** The `catalog_tables` row of one table of a data source. */
function isTable(dataSourceId: string, table: { readonly schema: string; readonly name: string }) {
  return and(
    eq(catalogTables.dataSourceId, dataSourceId),
    eq(catalogTables.schemaName, table.schema),
    eq(catalogTables.tableName, table.name),
  );
}
