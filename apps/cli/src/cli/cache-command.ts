import {
  dataSourceKey,
  dataSourceNames,
  loadServiceSettings,
  type MetadataStore,
  openMetadataStore,
} from "@nlq/adapters";
import type { Command } from "commander";
import { checkDatabaseUrl, USAGE_EXIT_CODE, UsageError } from "./cli-input";
import { type CommandOutput, describeCommandError, standardOutput } from "./command-output";

/** Where `nlq cache` writes; tests pass their own sinks and environment. */
export interface CacheCommandOutput extends CommandOutput {
  /** Environment read for the metadata store's settings. Default: process.env. */
  readonly environment?: Record<string, string | undefined>;
}

/** `host:port/database`, as the audit trail and `--data-source` name a data source. */
const dataSourcePattern = /^[^\s/:]+:\d{1,5}\/\S+$/;

/**
 * `nlq cache clear [--url URL | --data-source host:port/db]`: deletes the cached model responses of the metadata store
 * (`MetadataLlmCache.clear`) — every one, or those the answers on one data source were made of. The URL only names the
 * data source (nobody logs in with it); a loopback host also clears what was recorded under `localhost`, `127.0.0.1`
 * and `::1`. Cached responses also expire on their own (`NLQ_RESPONSE_CACHE_TTL`).
 */
export function registerCacheCommand(program: Command, output: CacheCommandOutput = standardOutput): void {
  const cache = program
    .command("cache")
    .description("manage the cache of model responses in the metadata store (see also NLQ_RESPONSE_CACHE_TTL)");
  cache
    .command("clear")
    .description("delete cached model responses: all of them, or one data source's")
    .option("--url <url>", "only the responses of answers on this URL's database (host, port and database name)")
    .option("--data-source <host:port/database>", "only the responses of answers on this data source")
    .addHelpText(
      "after",
      `
Without --url or --data-source every cached response is deleted (DATABASE_URL is not used: say which one).
The next question then calls the model again. Cached responses also expire after NLQ_RESPONSE_CACHE_TTL
(default 7d), and a thumbs-down or a corrected SQL in the web app evicts those of the answer it rated.

Environment:
  NLQ_METADATA_URL  the metadata store holding the cache (default: the embedded PostgreSQL in $NLQ_HOME/.nlq/postgres)

Examples:
  nlq cache clear
  nlq cache clear --url postgresql://127.0.0.1:5432/shop`,
    )
    .action(async (givenOptions: { url?: unknown; dataSource?: unknown }) => {
      const environment = output.environment ?? process.env;
      const fail = (message: string, exitCode = 1) => {
        output.writeError(`nlq cache clear: ${message}\n`);
        process.exitCode = exitCode;
      };
      let dataSources: string[] | undefined;
      let service: ReturnType<typeof loadServiceSettings>;
      try {
        service = loadServiceSettings(environment);
        dataSources = chosenDataSources(givenOptions);
      } catch (error) {
        return fail(describeCommandError(error), UsageError.isInstance(error) ? USAGE_EXIT_CODE : 1);
      }
      let store: MetadataStore | undefined;
      try {
        store = await openMetadataStore({ settings: service });
        let cleared = 0;
        if (dataSources === undefined) cleared = await store.llmCache.clear();
        else for (const dataSource of dataSources) cleared += await store.llmCache.clear({ dataSource });
        const scope = dataSources === undefined ? "every data source" : dataSources[0];
        output.write(`cleared ${cleared} cached model response${cleared === 1 ? "" : "s"} (${scope})\n`);
      } catch (error) {
        fail(describeCommandError(error));
      } finally {
        await store?.close().catch(() => undefined);
      }
    });
}

/** The data source names `--url` or `--data-source` stand for; undefined: every data source. */
function chosenDataSources(options: { url?: unknown; dataSource?: unknown }): string[] | undefined {
  if (options.url !== undefined && options.dataSource !== undefined) {
    throw new UsageError("pass --url or --data-source, not both");
  }
  if (typeof options.dataSource === "string") {
    const dataSource = options.dataSource.trim();
    if (!dataSourcePattern.test(dataSource)) {
      throw new UsageError(`--data-source must be host:port/database, got "${dataSource.slice(0, 80)}"`);
    }
    return loopbackNames(dataSource);
  }
  if (typeof options.url === "string") {
    const url = checkDatabaseUrl(options.url, "--url");
    return dataSourceNames(url, dataSourceKey(url));
  }
  return undefined;
}

/** A loopback data source under each loopback name it may have been recorded under (`dataSourceNames`). */
function loopbackNames(dataSource: string): string[] {
  const [, host, port, database] = /^([^/:]+):(\d+)\/(.*)$/s.exec(dataSource) ?? [];
  const url = `postgresql://${host}:${port}/${encodeURIComponent(database ?? "")}`;
  return dataSourceNames(url, dataSource);
}
