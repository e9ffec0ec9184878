import { loadServiceSettings, type MetadataStore, openQuestionMetadataStore } from "@nlq/adapters";
import { loadSettings, type Settings } from "@nlq/engine";
import {
  DEFAULT_MAX_SESSIONS,
  DEFAULT_MAX_SESSIONS_PER_ROLE,
  type McpToolSettings,
  serveStdio,
  startMcpHttpServer,
} from "@nlq/mcp";
import type { Command } from "commander";
import { checkDatabaseUrl, UsageError } from "./cli-input";
import { mcpOptionsSchema, parseCommandOptions, parseListenAddress } from "./command-options";
import { type CommandOutput, describeCommandError, refuseInput, standardOutput } from "./command-output";

/** Where `nlq mcp` writes its own lines (stderr: stdout carries the protocol over stdio); tests pass their own. */
export interface McpCommandOutput extends CommandOutput {
  /** Environment read for settings and `DATABASE_URL`. Default: process.env. */
  readonly environment?: Record<string, string | undefined>;
}

/** Rows a tool result carries at most, by default (`--max-rows`): enough to read, small enough for a model's context. */
const DEFAULT_MAX_ROWS = 100;

/**
 * `nlq mcp --url <postgresql://…> [--http host:port]`: an MCP server with the tools `ask`, `run_sql`, `search_schema`
 * and `explain`. Over stdio (default) every call runs as the URL's role; over Streamable HTTP (`--http`) each client
 * logs in as its own PostgreSQL role (`Authorization: Basic base64(role:password)` or `Bearer role:password`, checked
 * by PostgreSQL itself) and the URL gives only the server and database. Settings come from `NLQ_*` as for `nlq ask`;
 * the metadata store (catalog index, query log) is used when there is one.
 */
export function registerMcpCommand(program: Command, output: McpCommandOutput = standardOutput): void {
  program
    .command("mcp")
    .description("serve nlq's tools (ask, run_sql, search_schema, explain) to AI assistants over MCP")
    .option("--url <url>", "PostgreSQL URL: over stdio the role every call runs as (env: DATABASE_URL)")
    .option(
      "--http <host:port>",
      "serve Streamable HTTP at http://host:port/mcp instead of stdio; each client authenticates as its own PostgreSQL role (a port alone binds 127.0.0.1)",
    )
    .option(
      "--preset <preset>",
      "default preset of ask: fast, balanced or max, or a preset .json file (env: NLQ_PRESET)",
    )
    .option("--max-rows <n>", "most rows a tool result carries", String(DEFAULT_MAX_ROWS))
    .option("--max-sessions <n>", "HTTP: most sessions open at once, every role together", String(DEFAULT_MAX_SESSIONS))
    .option(
      "--max-sessions-per-role <n>",
      "HTTP: most sessions one PostgreSQL role may hold open at once",
      String(DEFAULT_MAX_SESSIONS_PER_ROLE),
    )
    .option(
      "--allowed-origin <origin...>",
      "HTTP: a browser origin (scheme://host[:port]) besides the server's own that may call it; any other Origin gets 403",
    )
    .option(
      "--allow-trust-auth",
      "HTTP: accept logins PostgreSQL lets in without checking the password (trust): anyone could claim any role",
      false,
    )
    .addHelpText(
      "after",
      `
Examples:
  nlq mcp --url postgresql://analyst:secret@127.0.0.1:5432/shop
  nlq mcp --http 127.0.0.1:8765 --url postgresql://127.0.0.1:5432/shop
    then: Authorization: Basic base64(role:password), endpoint http://127.0.0.1:8765/mcp`,
    )
    .action(async (givenOptions: Record<string, unknown>) => {
      const environment = output.environment ?? process.env;
      let options: ReturnType<typeof mcpOptionsSchema.parse>;
      let url: string;
      let settings: Settings;
      let service: ReturnType<typeof loadServiceSettings>;
      try {
        options = parseCommandOptions(mcpOptionsSchema, givenOptions);
        service = loadServiceSettings(environment);
        const givenUrl = options.url ?? service.databaseUrl;
        if (!givenUrl) throw new UsageError("no database: pass --url postgresql://… or set DATABASE_URL");
        url = checkDatabaseUrl(givenUrl, options.url === undefined ? "DATABASE_URL" : "--url");
        settings = loadSettings(
          options.preset === undefined ? environment : { ...environment, NLQ_PRESET: options.preset },
        );
      } catch (error) {
        return refuseInput("mcp", error, output);
      }
      const warn = (message: string) => output.writeError(`nlq mcp: ${message}\n`);
      // nlq's version as main.ts set it (importing nlq-version here would move it out of the entry chunk).
      const version = program.version() ?? "unknown";
      let metadataStore: MetadataStore | undefined;
      try {
        if (options.http === undefined) {
          // Over stdio, stdout carries the protocol: any library's console.log / console.info goes to stderr instead.
          console.log = console.error;
          console.info = console.error;
        }
        metadataStore = await openQuestionMetadataStore(service, warn);
        const tools: McpToolSettings = {
          settings,
          settingsForPreset: (preset) => loadSettings({ ...environment, NLQ_PRESET: preset }),
          ...(metadataStore ? { metadataStore } : {}),
          ...(service.qdrant ? { qdrant: service.qdrant } : {}),
          maxRows: options.maxRows,
          administratorRole: service.webExampleAdministratorRole,
          // Both transports are long-lived: each database and role nothing is indexed for gets a value index built in
          // the background, over that role's own login (the stdio URL's, or the HTTP client's password).
          backgroundValueIndexes: true,
        };
        if (options.http === undefined) {
          await serveStdio({ url, tools, version });
          return;
        }
        const address = parseListenAddress(options.http);
        if (!address) throw new UsageError(`--http must be host:port, got ${options.http}`);
        const server = await startMcpHttpServer({
          ...address,
          url,
          tools,
          version,
          maxSessions: options.maxSessions,
          maxSessionsPerRole: options.maxSessionsPerRole,
          ...(options.allowedOrigin === undefined ? {} : { allowedOrigins: options.allowedOrigin }),
          allowUncheckedPasswords: options.allowTrustAuth,
          log: warn,
        });
        warn(`listening on ${server.endpoint} (each client authenticates as its own PostgreSQL role)`);
        await new Promise<void>((resolve) => {
          const stop = () => resolve();
          process.once("SIGINT", stop);
          process.once("SIGTERM", stop);
        });
        await server.close();
      } catch (error) {
        warn(describeCommandError(error));
        process.exitCode = 1;
      } finally {
        await metadataStore?.close().catch(() => undefined);
      }
    });
}
