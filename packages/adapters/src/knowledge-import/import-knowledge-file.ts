import { readFile } from "node:fs/promises";
import path from "node:path";
import { introspectCatalog, type QueryExecutor, runReadOnly, type TransactionStatus } from "@nlq/engine";
import { decodeTextFile } from "../catalog-files/decode-text-file";
import type { KnowledgeEditor, KnowledgeSyncCounts } from "../metadata/knowledge-store";
import { KnowledgeStore } from "../metadata/knowledge-store";
import type { MetadataDatabase } from "../metadata/metadata-database";
import { DatabaseElements, type UnmatchedKnowledge } from "./imported-knowledge";
import { KnowledgeImportError } from "./knowledge-import-error";
import { parseKnowledgeYaml } from "./knowledge-yaml";
import { parseDbtManifest } from "./parse-dbt-manifest";

/** The formats `nlq knowledge import` reads. */
export type KnowledgeFileFormat = "dbt" | "yaml";

export interface ImportKnowledgeFileOptions {
  readonly database: MetadataDatabase;
  /** `host:port/database` of the target database. */
  readonly dataSource: string;
  /** Who imports (`roleAuthority`): the entries become theirs, an administrator's shared with every role. */
  readonly editor: KnowledgeEditor;
  /** The importing role's session on the target database: a dbt manifest is matched to what it may read there. */
  readonly session: QueryExecutor;
  readonly transactionStatus?: TransactionStatus;
  readonly statementTimeoutMilliseconds: number;
  readonly file: string;
  /** Default: from the name (`*.json` a dbt manifest, `*.yaml`/`*.yml` nlq's YAML), else from the content. */
  readonly format?: KnowledgeFileFormat;
  /**
   * YAML: also remove the editor's entries of origin `yaml` the file no longer holds. (A dbt manifest is the whole
   * project: its import always removes the editor's `dbt` entries it no longer holds.) Default false.
   */
  readonly replace?: boolean;
  readonly abortSignal?: AbortSignal;
}

export interface KnowledgeFileImport {
  readonly format: KnowledgeFileFormat;
  readonly counts: KnowledgeSyncCounts;
  /** What names a table or column the importing role does not see in the database (dbt only). */
  readonly unmatched: readonly UnmatchedKnowledge[];
}

/** The format of `file`: by its extension, else a JSON object with `nodes` is a dbt manifest and anything else YAML. */
export function knowledgeFileFormat(file: string, text: string): KnowledgeFileFormat {
  const extension = path.extname(file).toLowerCase();
  if (extension === ".json") return "dbt";
  if (extension === ".yaml" || extension === ".yml") return "yaml";
  return /^\s*\{[\s\S]*"nodes"\s*:/.test(text) ? "dbt" : "yaml";
}

/**
 * `nlq knowledge import`: reads a dbt manifest or a YAML file of entries and makes the editor's entries of that origin
 * on the data source what the file says (`KnowledgeStore.sync`, one transaction: the import applies whole or not at
 * all). A dbt manifest is matched to the tables and columns the importing role may read, introspected read-only on
 * its own session; what it cannot match is returned, not stored. Throws `KnowledgeImportError` for a file that cannot
 * be read or parsed (nothing stored), `KnowledgeEntryError` for an entry the store refuses.
 */
export async function importKnowledgeFile(options: ImportKnowledgeFileOptions): Promise<KnowledgeFileImport> {
  let text: string;
  try {
    text = decodeTextFile(await readFile(options.file));
  } catch (error) {
    throw new KnowledgeImportError(options.file, "$", `cannot read the file: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const format = options.format ?? knowledgeFileFormat(options.file, text);
  const store = new KnowledgeStore(options.database);
  if (format === "yaml") {
    const entries = parseKnowledgeYaml(text, options.file);
    const counts = await store.sync(options.dataSource, "yaml", entries, options.editor, {
      removeMissing: options.replace === true,
    });
    return { format, counts, unmatched: [] };
  }
  const catalog = await runReadOnly(options, introspectCatalog);
  const elements = new DatabaseElements(
    catalog.tables.map((table) => ({
      schema: table.schema,
      name: table.name,
      columns: table.columns.map((column) => column.name),
    })),
  );
  const imported = parseDbtManifest(text, options.file, elements);
  const counts = await store.sync(options.dataSource, "dbt", imported.entries, options.editor, {
    removeMissing: true,
  });
  return { format, counts, unmatched: imported.unmatched };
}
