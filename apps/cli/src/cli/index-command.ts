import {
  type CatalogIndexProgress,
  createMetadataVectorPersistence,
  createPgExecutor,
  createVectorStore,
  dataSourceKey,
  type ExternalDescriptions,
  ensureDataSource,
  formatProgressBar,
  formatProgressLine,
  glossaryKnowledge,
  indexCatalog,
  KnowledgeStore,
  loadServiceSettings,
  type MetadataStore,
  openMetadataStore,
  readCatalogFiles,
  resolvePipelineEmbeddingModel,
  roleAuthority,
  type ServiceSettings,
  withDistinctNames,
} from "@nlq/adapters";
import { loadSettings, type Settings, type VectorStore } from "@nlq/engine";
import type { Command } from "commander";
import pg from "pg";
import { checkDatabaseUrl, USAGE_EXIT_CODE } from "./cli-input";
import { indexOptionsSchema, parseCommandOptions } from "./command-options";
import { type CommandOutput, describeCommandError, standardOutput } from "./command-output";

/** Where `nlq index` writes (stdout: the summary; stderr: progress and errors); tests pass their own sinks. */
export interface IndexCommandOutput extends CommandOutput {
  /** Draw a progress bar (TTY) instead of plain lines. Default: `process.stderr.isTTY`. */
  readonly tty?: boolean;
  /** Environment read for `DATABASE_URL`, `NLQ_METADATA_URL`, `NLQ_EMBEDDING_MODEL`, `NLQ_QDRANT_URL`. Default: process.env. */
  readonly environment?: Record<string, string | undefined>;
}

/** Progress on stderr: a redrawn bar with counts and ETA on a TTY, otherwise a plain line at most every 2 s. */
export function createProgressReporter(output: IndexCommandOutput, tty: boolean) {
  const started = performance.now();
  let lastLine = 0;
  return {
    update(progress: CatalogIndexProgress) {
      const state = {
        done: progress.done,
        total: progress.total,
        elapsedMilliseconds: performance.now() - started,
        label: progress.table,
      };
      if (tty) {
        // A pty without a size (e.g. `script`) reports 0 columns: treat it as 80.
        const width = Math.max(40, (process.stderr.columns || 80) - 1);
        output.writeError(`\r\u001b[2K${formatProgressBar(state, width)}`);
        return;
      }
      const now = performance.now();
      if (now - lastLine >= 2_000 || progress.done === progress.total) {
        lastLine = now;
        output.writeError(`${formatProgressLine(state)}\n`);
      }
    },
    finish() {
      if (tty) output.writeError("\r\u001b[2K");
    },
  };
}

function collectSchemas(value: string, previous: string[]): string[] {
  return [
    ...previous,
    ...value
      .split(",")
      .map((schema) => schema.trim())
      .filter(Boolean),
  ];
}

/**
 * `nlq index --url <postgresql://…> [--catalog-files <dir>] [--schema <name>]…`: builds or refreshes the data
 * source's catalog index in the metadata store (`NLQ_METADATA_URL`, else the embedded PostgreSQL under `.nlq/`), incrementally.
 */
export function registerIndexCommand(program: Command, output: IndexCommandOutput = standardOutput): void {
  program
    .command("index")
    .description("index a database's catalog (tables, columns, keys, descriptions, statistics, values, embeddings)")
    .option("--url <url>", "PostgreSQL connection URL of the database to index (env: DATABASE_URL)")
    .option(
      "--catalog-files <path>",
      "BIRD database_description/*.csv or defog <db>.json descriptions (COMMENT ON wins); a defog glossary is kept as knowledge",
    )
    .option(
      "--schema <name>",
      "only this schema (repeatable or comma separated; default all readable)",
      collectSchemas,
      [],
    )
    .option("--force", "re-index every table, ignoring fingerprints", false)
    .option("--no-values", "skip the value index")
    .option("--no-embeddings", "skip the description embeddings")
    .addHelpText(
      "after",
      `
Incremental: a table is re-indexed only when its columns, types, comments, keys or row estimate changed; each table
is committed on its own, so an interrupted run (Ctrl-C) keeps what it finished — run it again to continue.

Environment:
  NLQ_METADATA_URL     metadata store (PostgreSQL); default the embedded PostgreSQL in $NLQ_HOME/.nlq/postgres
  NLQ_EMBEDDING_MODEL  embedding model of the descriptions (default: the offline embedder)
  NLQ_QDRANT_URL       Qdrant for the vectors (default: embedded in the metadata store)

Example:
  nlq index --url postgresql://postgres@127.0.0.1:5432/spider_warehouse`,
    )
    .action(async (givenOptions: Record<string, unknown>) => {
      const environment = output.environment ?? process.env;
      const fail = (message: string, exitCode = 1) => {
        output.writeError(`nlq index: ${message}\n`);
        process.exitCode = exitCode;
      };
      let options: ReturnType<typeof indexOptionsSchema.parse>;
      try {
        options = parseCommandOptions(indexOptionsSchema, givenOptions);
      } catch (error) {
        return fail(describeCommandError(error), USAGE_EXIT_CODE);
      }
      let settings: Settings;
      let service: ServiceSettings;
      try {
        settings = loadSettings(environment);
        service = loadServiceSettings(environment);
      } catch (error) {
        return fail(describeCommandError(error));
      }
      const givenUrl = options.url ?? service.databaseUrl;
      if (!givenUrl) return fail("no database: pass --url postgresql://… or set DATABASE_URL", USAGE_EXIT_CODE);
      let url: string;
      try {
        url = checkDatabaseUrl(givenUrl, options.url === undefined ? "DATABASE_URL" : "--url");
      } catch (error) {
        return fail(describeCommandError(error), USAGE_EXIT_CODE);
      }
      let client: pg.Client | undefined;
      let store: MetadataStore | undefined;
      let vectorStore: VectorStore | undefined;
      const controller = new AbortController();
      const onSignal = () => controller.abort();
      process.once("SIGINT", onSignal);
      const reporter = createProgressReporter(output, output.tty ?? process.stderr.isTTY === true);
      let committed = 0;
      try {
        const descriptions: ExternalDescriptions | undefined = options.catalogFiles
          ? await readCatalogFiles(options.catalogFiles)
          : undefined;
        store = await openMetadataStore({ settings: service });
        const dataSource = await ensureDataSource(store.database, { url });
        client = new pg.Client({ connectionString: url });
        await client.connect();
        if (options.embeddings)
          vectorStore = createVectorStore({
            persistence: createMetadataVectorPersistence(store.database),
            qdrant: service.qdrant,
          });
        const started = performance.now();
        const result = await indexCatalog({
          executor: createPgExecutor(client, { name: "nlq-index" }),
          database: store.database,
          dataSourceId: dataSource.id,
          schemas: options.schema,
          descriptions,
          vectorStore,
          embeddingModel: options.embeddings ? resolvePipelineEmbeddingModel(settings) : undefined,
          values: options.values,
          force: options.force,
          abortSignal: controller.signal,
          onProgress: (progress) => {
            if (progress.status === "indexed") committed += 1;
            reporter.update(progress);
          },
        });
        reporter.finish();
        const seconds = ((performance.now() - started) / 1000).toFixed(1);
        output.write(
          `indexed ${dataSource.name}: ${result.tables} tables, ${result.columns} columns — ${result.indexed} (re)indexed, ${result.unchanged} unchanged, ${result.removed} removed in ${seconds} s (metadata store: ${store.location})\n`,
        );
        if (descriptions) output.write(await keepGlossaries(descriptions, client, store, url, service));
      } catch (error) {
        reporter.finish();
        if (controller.signal.aborted)
          fail(`interrupted: ${committed} tables committed this run; run again to continue`);
        else fail(describeCommandError(error));
      } finally {
        process.off("SIGINT", onSignal);
        await client?.end().catch(() => undefined);
        await vectorStore?.close().catch(() => undefined);
        await store?.close().catch(() => undefined);
      }
    });
}

/**
 * A defog glossary read with `--catalog-files` becomes knowledge entries (one per line: `glossaryKnowledge`) of the
 * URL's role, shared with every role when it is an administrator, origin `catalog-files`: re-indexing makes them what
 * the files say now (lines gone from the files leave). Resolves to the line `nlq index` prints; "" without glossaries.
 */
async function keepGlossaries(
  descriptions: ExternalDescriptions,
  client: pg.Client,
  store: MetadataStore,
  url: string,
  service: ServiceSettings,
): Promise<string> {
  const glossaries = descriptions.glossaries ?? [];
  if (glossaries.length === 0) return "";
  const authority = await roleAuthority(client, service.webExampleAdministratorRole);
  const entries = withDistinctNames(
    glossaries.flatMap((glossary) => glossaryKnowledge(glossary.text, glossary.source)),
  );
  const counts = await new KnowledgeStore(store.database).sync(
    dataSourceKey(url),
    "catalog-files",
    entries,
    { role: authority.role, administrator: authority.administrator },
    { removeMissing: true },
  );
  const whose = authority.administrator ? "shared with every role" : `${authority.role}'s own`;
  return `kept ${entries.length} glossary lines of ${glossaries.map((glossary) => glossary.source).join(", ")} as knowledge (${whose}): ${counts.created} created, ${counts.updated} updated, ${counts.unchanged} unchanged, ${counts.removed} removed\n`;
}
