import {
  auditEntries,
  dataSourceNames,
  loadServiceSettings,
  type MetadataStore,
  openQuestionMetadataStore,
  roleAuthority,
  type ServiceSettings,
} from "@nlq/adapters";
import { NlqError } from "@nlq/engine";
import type { Command } from "commander";
import pg from "pg";
import { checkDatabaseUrl, USAGE_EXIT_CODE, UsageError } from "./cli-input";
import { logOptionsSchema, parseCommandOptions } from "./command-options";
import { type CommandOutput, describeCommandError, standardOutput } from "./command-output";
import { formatAuditEntries } from "./format-audit-entries";

/** Where `nlq log` writes; tests pass their own sinks and environment. */
export interface LogCommandOutput extends CommandOutput {
  /** Environment read for settings and `DATABASE_URL`. Default: process.env. */
  readonly environment?: Record<string, string | undefined>;
}

/** Most entries one call lists. */
export const maximumLogEntries = 10_000;

const noAuditTrailErrorMarker = Symbol.for("nlq.error.NoAuditTrailError");

/** There is no metadata store, so nothing was ever recorded. SQLSTATE 55000. */
export class NoAuditTrailError extends NlqError {
  readonly [noAuditTrailErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is NoAuditTrailError {
    return NlqError.hasMarker(error, noAuditTrailErrorMarker);
  }

  constructor() {
    super(
      "no metadata store: set NLQ_METADATA_URL, or run nlq start once (its embedded PostgreSQL keeps the audit trail)",
      { code: "55000" },
    );
  }
}

/**
 * `nlq log [--url URL] [--role NAME] [--since 7d] [--surface cli] [--limit 50] [--json]`: the audit trail of the URL's
 * database, newest first. Who is listing is established by logging in with the URL (PostgreSQL checks its password as
 * for any connection) and asking the server: `session_user`, and whether it is an administrator (a superuser or a
 * member of `NLQ_WEB_EXAMPLE_ADMIN_ROLE`). A role sees its own entries; an administrator sees every role's, or one
 * role's with `--role`.
 */
export function registerLogCommand(program: Command, output: LogCommandOutput = standardOutput): void {
  program
    .command("log")
    .description("list the audit trail: who asked which question from where, the SQL that ran, its confidence")
    .option("--url <url>", "PostgreSQL URL of the database, as the role whose entries to list (env: DATABASE_URL)")
    .option("--role <name>", "only this role's entries (administrators; others may name only themselves)")
    .option("--since <when>", "entries since a duration ago (30m, 12h, 7d, 2w) or a date (2026-11-27)")
    .option("--surface <surface>", "only entries from proxy, web, mcp or cli")
    .option("--limit <n>", `most entries, newest first (default 50, at most ${maximumLogEntries})`)
    .option("--json", "print the entries as JSON", false)
    .addHelpText(
      "after",
      `
Who sees what: the URL's role logs in to its database (its password is checked as for any connection); it sees its
own entries. A superuser or a member of NLQ_WEB_EXAMPLE_ADMIN_ROLE (default nlq_example_admin) sees every role's.
Entries hold the question, the SQL that ran or the error, confidence and its basis, the interpretations offered and
row counts — never rows.

Environment:
  NLQ_METADATA_URL           the metadata store holding the audit trail (default: the embedded PostgreSQL in
                             $NLQ_HOME/.nlq/postgres)
  NLQ_WEB_EXAMPLE_ADMIN_ROLE role whose members are administrators (default nlq_example_admin)

Example:
  nlq log --url postgresql://alice@127.0.0.1:5432/shop --since 1d`,
    )
    .action(async (givenOptions: Record<string, unknown>) => {
      const environment = output.environment ?? process.env;
      const fail = (message: string, exitCode = 1) => {
        output.writeError(`nlq log: ${message}\n`);
        process.exitCode = exitCode;
      };
      let options: ReturnType<typeof logOptionsSchema.parse>;
      let service: ServiceSettings;
      let url: string;
      try {
        options = parseCommandOptions(logOptionsSchema, givenOptions);
        service = loadServiceSettings(environment);
        const givenUrl = options.url ?? service.databaseUrl;
        if (!givenUrl) throw new UsageError("no database: pass --url postgresql://… or set DATABASE_URL");
        url = checkDatabaseUrl(givenUrl, options.url === undefined ? "DATABASE_URL" : "--url");
      } catch (error) {
        return fail(describeCommandError(error), UsageError.isInstance(error) ? USAGE_EXIT_CODE : 1);
      }
      const client = new pg.Client({ connectionString: url, application_name: "nlq log" });
      client.on("error", () => undefined);
      let store: MetadataStore | undefined;
      try {
        await client.connect();
        const authority = await roleAuthority(client, service.webExampleAdministratorRole);
        await client.end();
        store = await openQuestionMetadataStore(service, (message) => output.writeError(`nlq log: ${message}\n`));
        if (!store) throw new NoAuditTrailError();
        const entries = await auditEntries(store.database, {
          // The URL's name of the database and the server's own (through the proxy, the upstream's address).
          dataSource: dataSourceNames(url, authority.serverDataSource),
          // The store decides what the role may see (its own entries, or any role's for an administrator) and
          // refuses another role's to anyone else with AuditAccessError.
          asking: authority,
          ...(options.role === undefined ? {} : { role: options.role }),
          ...(options.since === undefined ? {} : { since: options.since }),
          ...(options.surface === undefined ? {} : { surface: options.surface }),
          limit: Math.min(options.limit, maximumLogEntries),
        });
        output.write(options.json ? `${JSON.stringify(entries, null, 2)}\n` : formatAuditEntries(entries));
      } catch (error) {
        fail(describeCommandError(error));
      } finally {
        await client.end().catch(() => undefined);
        await store?.close().catch(() => undefined);
      }
    });
}
