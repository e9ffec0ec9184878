import { writeFile } from "node:fs/promises";
import {
  createPgExecutor,
  dataSourceKey,
  formatKnowledgeYaml,
  importKnowledgeFile,
  type KnowledgeChange,
  type KnowledgeEditor,
  type KnowledgeEntryRow,
  KnowledgeStore,
  knowledgeEntryForRole,
  knowledgeEntryView,
  knowledgeForRole,
  knowledgeHistoryForRole,
  loadServiceSettings,
  type MetadataDatabase,
  type MetadataStore,
  openQuestionMetadataStore,
  roleAuthority,
} from "@nlq/adapters";
import { introspectCatalog, loadSettings, NlqError, type QueryExecutor, runReadOnly } from "@nlq/engine";
import type { Command } from "commander";
import pg from "pg";
import type { z } from "zod";
import { checkDatabaseUrl, USAGE_EXIT_CODE, UsageError } from "./cli-input";
import { parseCommandOptions } from "./command-options";
import { type CommandOutput, describeCommandError, standardOutput } from "./command-output";
import { type CommentDescription, formatKnowledgeEntries, formatKnowledgeHistory } from "./format-knowledge-entries";
import {
  knowledgeAddOptionsSchema,
  knowledgeEditOptionsSchema,
  knowledgeExportOptionsSchema,
  knowledgeIdOptionsSchema,
  knowledgeImportOptionsSchema,
  knowledgeListOptionsSchema,
} from "./knowledge-command-options";

/** Where `nlq knowledge …` writes; tests pass their own sinks and environment. */
export interface KnowledgeCommandOutput extends CommandOutput {
  /** Environment read for settings and `DATABASE_URL`. Default: process.env. */
  readonly environment?: Record<string, string | undefined>;
}

const noKnowledgeStoreErrorMarker = Symbol.for("nlq.error.NoKnowledgeStoreError");

/** There is no metadata store to keep knowledge in. SQLSTATE 55000. */
export class NoKnowledgeStoreError extends NlqError {
  readonly [noKnowledgeStoreErrorMarker] = true;

  static override isInstance(error: unknown): error is NoKnowledgeStoreError {
    return NlqError.hasMarker(error, noKnowledgeStoreErrorMarker);
  }

  constructor() {
    super("no metadata store: set NLQ_METADATA_URL, or run nlq start once (its embedded PostgreSQL keeps knowledge)", {
      code: "55000",
    });
  }
}

/** What every subcommand works with: who is acting, on which data source, over which session and store. */
interface KnowledgeContext {
  readonly dataSource: string;
  readonly editor: KnowledgeEditor;
  readonly administratorRole: string;
  /** The URL's role's own session on the target database (what it may read is checked there). */
  readonly session: QueryExecutor;
  readonly database: MetadataDatabase;
  readonly statementTimeoutMilliseconds: number;
}

/**
 * Runs one subcommand: checks its options (exit 2 on a bad one), logs in with the URL (PostgreSQL checks the password
 * as for any connection) and asks the server who that is and whether it is an administrator (a superuser or a member
 * of `NLQ_WEB_EXAMPLE_ADMIN_ROLE`), opens the metadata store, and prints what `work` returns.
 */
async function runKnowledge<Schema extends z.ZodType<{ readonly url?: string | undefined }>>(
  subcommand: string,
  output: KnowledgeCommandOutput,
  schema: Schema,
  given: Record<string, unknown>,
  work: (options: z.output<Schema>, context: KnowledgeContext) => Promise<string>,
): Promise<void> {
  const environment = output.environment ?? process.env;
  const fail = (message: string, exitCode = 1) => {
    output.writeError(`nlq knowledge ${subcommand}: ${message}\n`);
    process.exitCode = exitCode;
  };
  let options: z.output<Schema>;
  let url: string;
  let service: ReturnType<typeof loadServiceSettings>;
  let statementTimeoutMilliseconds: number;
  try {
    options = parseCommandOptions(schema, given, { file: "the file", id: "the entry's id" });
    service = loadServiceSettings(environment);
    statementTimeoutMilliseconds = loadSettings(environment).statementTimeoutMilliseconds;
    const givenUrl = options.url ?? service.databaseUrl;
    if (!givenUrl) throw new UsageError("no database: pass --url postgresql://… or set DATABASE_URL");
    url = checkDatabaseUrl(givenUrl, options.url === undefined ? "DATABASE_URL" : "--url");
  } catch (error) {
    return fail(describeCommandError(error), UsageError.isInstance(error) ? USAGE_EXIT_CODE : 1);
  }
  const client = new pg.Client({ connectionString: url, application_name: `nlq knowledge ${subcommand}` });
  client.on("error", () => undefined);
  let store: MetadataStore | undefined;
  try {
    await client.connect();
    const authority = await roleAuthority(client, service.webExampleAdministratorRole);
    store = await openQuestionMetadataStore(service, (message) =>
      output.writeError(`nlq knowledge ${subcommand}: ${message}\n`),
    );
    if (!store) throw new NoKnowledgeStoreError();
    const text = await work(options, {
      dataSource: dataSourceKey(url),
      editor: { role: authority.role, administrator: authority.administrator },
      administratorRole: service.webExampleAdministratorRole,
      session: createPgExecutor(client, { name: "nlq-knowledge" }),
      database: store.database,
      statementTimeoutMilliseconds,
    });
    output.write(text);
  } catch (error) {
    fail(describeCommandError(error));
  } finally {
    await client.end().catch(() => undefined);
    await store?.close().catch(() => undefined);
  }
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

function whoseNow(editor: KnowledgeEditor): string {
  return editor.administrator ? "shared with every role (you are an administrator)" : "yours only";
}

/** `whoseNow` inside parentheses, after one entry's name. */
function whoseEntryNow(editor: KnowledgeEditor): string {
  return editor.administrator ? "shared with every role" : "yours only";
}

/** The comments of the tables and columns `session`'s role may read, except the elements an entry describes. */
async function liveComments(context: KnowledgeContext, described: ReadonlySet<string>): Promise<CommentDescription[]> {
  const catalog = await runReadOnly(
    {
      session: context.session,
      transactionStatus: "idle",
      statementTimeoutMilliseconds: context.statementTimeoutMilliseconds,
    },
    (query) => introspectCatalog(query),
  );
  const comments: CommentDescription[] = [];
  for (const table of catalog.tables) {
    const key = `${table.schema}.${table.name}`;
    if (table.comment && !described.has(key)) comments.push({ element: key, text: table.comment });
    for (const column of table.columns) {
      const element = `${key}.${column.name}`;
      if (column.comment && !described.has(element)) comments.push({ element, text: column.comment });
    }
  }
  return comments;
}

function visibleEntries(context: KnowledgeContext): Promise<KnowledgeEntryRow[]> {
  return knowledgeForRole({
    database: context.database,
    dataSource: context.dataSource,
    role: context.editor.role,
    session: context.session,
    statementTimeoutMilliseconds: context.statementTimeoutMilliseconds,
  });
}

/** Origins a later import makes again what its file says (`KnowledgeStore.sync`). */
const importedOrigins: ReadonlySet<string> = new Set(["dbt", "yaml", "catalog-files"]);

/**
 * `nlq knowledge edit`: the entry must be one the role's list shows (`knowledgeEntryForRole`); then the store changes
 * it as the role may (its own; an administrator's also the shared ones). A description renamed to another element
 * follows it in its references when they named only the old one. `NoSuchKnowledgeEntryError` for an entry the role
 * cannot see, `KnowledgeEntryNotEditableError` for one it sees but may not change.
 */
async function editEntry(
  context: KnowledgeContext,
  options: z.output<typeof knowledgeEditOptionsSchema>,
): Promise<{ readonly entry: KnowledgeEntryRow; readonly previous: KnowledgeEntryRow }> {
  const lookup = () =>
    knowledgeEntryForRole({
      database: context.database,
      dataSource: context.dataSource,
      id: options.id,
      viewer: context.editor,
      session: context.session,
      statementTimeoutMilliseconds: context.statementTimeoutMilliseconds,
    });
  const previous = await lookup();
  if (!previous) throw new NoSuchKnowledgeEntryError(options.id, "you may see");
  const renamedDescription =
    previous.kind === "description" &&
    options.name !== undefined &&
    options.references === undefined &&
    previous.references.length === 1 &&
    previous.references[0] === previous.name;
  const entry = await new KnowledgeStore(context.database).update(
    context.dataSource,
    options.id,
    {
      ...(options.name === undefined ? {} : { name: options.name }),
      ...(options.text === undefined ? {} : { text: options.text }),
      ...(options.sql === undefined ? {} : { sql: options.sql }),
      ...(options.references !== undefined
        ? { references: options.references }
        : renamedDescription
          ? { references: [options.name!.trim()] }
          : {}),
    },
    context.editor,
  );
  if (entry) return { entry, previous };
  if (await lookup()) throw new KnowledgeEntryNotEditableError(options.id, context.administratorRole);
  throw new NoSuchKnowledgeEntryError(options.id, "you may see");
}

const connectionHelp = `
Who you are: the URL's role logs in to its database (its password is checked as for any connection). Your entries are
yours; an administrator's (a superuser or a member of NLQ_WEB_EXAMPLE_ADMIN_ROLE, default nlq_example_admin) are
shared with every role. An entry reaches a role only when it may read every table and column it references.`;

/**
 * `nlq knowledge add | list | import | edit | history | remove | export | accept`: the knowledge base of the URL's database
 * (docs/knowledge.md), scoped as the store's rule (docs/decisions/2026-12-01-readings-knowledge-and-teaching.md, rule
 * 1): the role comes from the connection, administrators write for every role and accept suggestions.
 */
export function registerKnowledgeCommand(program: Command, output: KnowledgeCommandOutput = standardOutput): void {
  const knowledge = program
    .command("knowledge")
    .description("the knowledge base of a database: terms, metrics, descriptions and rules every answer may use");
  const withConnection = (command: Command) =>
    command
      .option("--url <url>", "PostgreSQL URL of the database, as the role acting (env: DATABASE_URL)")
      .option("--json", "print the result as JSON", false)
      .addHelpText("after", connectionHelp);

  withConnection(
    knowledge
      .command("add")
      .description("add (or replace) one of your entries: a term, metric, description or rule")
      .option("--kind <kind>", "term, metric, description (of schema.table or schema.table.column) or rule")
      .option("--name <name>", "the term or metric, the element described (schema.table[.column]) or the rule's title")
      .option("--text <text>", "the definition, description or rule in plain language")
      .option("--sql <sql>", "a metric's SQL expression or a rule's SQL condition")
      .option("--references <list>", "tables and columns it names, comma separated (schema.table[.column])"),
  ).action((given: Record<string, unknown>) =>
    runKnowledge("add", output, knowledgeAddOptionsSchema, given, async (options, context) => {
      const references =
        options.references ?? (options.kind === "description" ? [options.name.trim()] : ([] as string[]));
      const { entry, action } = await new KnowledgeStore(context.database).save(
        {
          dataSource: context.dataSource,
          kind: options.kind,
          name: options.name,
          text: options.text,
          ...(options.sql === undefined ? {} : { sql: options.sql }),
          references,
          origin: "manual",
        },
        context.editor,
      );
      const view = knowledgeEntryView(entry, context.editor.role);
      if (options.json) return json({ action, entry: view });
      return `${action} ${view.kind} «${view.name}» (${whoseEntryNow(context.editor)}), id ${view.id}\n`;
    }),
  );

  withConnection(
    knowledge
      .command("list")
      .description("list the entries you may see (yours and shared ones whose tables you may read), and comments")
      .option("--kind <kind>", "only term, metric, description, rule or reading entries")
      .option("--suggestions", "list suggestions waiting for an administrator instead (administrators: every one)")
      .option("--no-comments", "leave out the tables' and columns' COMMENT ON descriptions"),
  ).action((given: Record<string, unknown>) =>
    runKnowledge("list", output, knowledgeListOptionsSchema, given, async (options, context) => {
      const rows = options.suggestions
        ? await new KnowledgeStore(context.database).suggestions(context.dataSource, context.editor)
        : await visibleEntries(context);
      const entries = rows
        .map((row) => knowledgeEntryView(row, context.editor.role))
        .filter((entry) => options.kind === undefined || entry.kind === options.kind);
      const wantComments =
        !options.suggestions && options.comments && (options.kind === undefined || options.kind === "description");
      const described = new Set(rows.filter((row) => row.kind === "description").map((row) => row.name));
      const comments = wantComments ? await liveComments(context, described) : [];
      if (options.json) return json({ entries, comments });
      return formatKnowledgeEntries(entries, comments);
    }),
  );

  withConnection(
    knowledge
      .command("import")
      .description("import a dbt target/manifest.json or a YAML file of entries (docs/knowledge.md)")
      .argument("<file>", "target/manifest.json (dbt) or entries.yaml")
      .option("--format <format>", "dbt or yaml (default: from the file name, else its content)")
      .option("--replace", "YAML: also remove your yaml entries the file no longer holds (dbt always does)"),
  ).action((file: string, given: Record<string, unknown>) =>
    runKnowledge("import", output, knowledgeImportOptionsSchema, { ...given, file }, async (options, context) => {
      const imported = await importKnowledgeFile({
        database: context.database,
        dataSource: context.dataSource,
        editor: context.editor,
        session: context.session,
        statementTimeoutMilliseconds: context.statementTimeoutMilliseconds,
        file: options.file,
        ...(options.format === undefined ? {} : { format: options.format }),
        replace: options.replace,
      });
      if (options.json) return json(imported);
      const { created, updated, unchanged, removed } = imported.counts;
      const lines = [
        `imported ${options.file} (${imported.format}) into ${context.dataSource}, ${whoseNow(context.editor)}: ${created} created, ${updated} updated, ${unchanged} unchanged, ${removed} removed`,
        ...imported.unmatched.map((missing) => `not imported: ${missing.externalId}: ${missing.reason}`),
      ];
      return `${lines.join("\n")}\n`;
    }),
  );

  withConnection(
    knowledge
      .command("remove")
      .description("remove an entry you may change (yours; administrators: shared ones), or withdraw a suggestion")
      .argument("<id>", "the entry's id, as nlq knowledge list shows it"),
  ).action((id: string, given: Record<string, unknown>) =>
    runKnowledge("remove", output, knowledgeIdOptionsSchema, { ...given, id }, async (options, context) => {
      const store = new KnowledgeStore(context.database);
      const removed =
        (await store.remove(context.dataSource, options.id, context.editor)) ||
        (await store.reject(context.dataSource, options.id, context.editor));
      if (!removed) throw new NoSuchKnowledgeEntryError(options.id, "you may remove");
      return options.json ? json({ removed: options.id }) : `removed ${options.id}\n`;
    }),
  );

  withConnection(
    knowledge
      .command("edit")
      .description(
        "change an entry you may change (yours; administrators: shared ones), keeping the old version in its history",
      )
      .argument("<id>", "the entry's id, as nlq knowledge list shows it")
      .option("--name <name>", "the new name (a description's: the element described, schema.table[.column])")
      .option("--text <text>", "the new definition, description or rule in plain language")
      .option("--sql <sql>", "the new SQL expression or condition ('' removes it)")
      .option("--references <list>", "the tables and columns it names now, comma separated ('' names none)"),
  ).action((id: string, given: Record<string, unknown>) =>
    runKnowledge("edit", output, knowledgeEditOptionsSchema, { ...given, id }, async (options, context) => {
      const { entry, previous } = await editEntry(context, options);
      const view = knowledgeEntryView(entry, context.editor.role);
      if (options.json) return json({ entry: view });
      const lines = [`updated ${view.kind} «${view.name}» (${whoseEntryNow(context.editor)}), id ${view.id}`];
      if (importedOrigins.has(previous.origin)) {
        lines.push(
          `note: it came from a ${previous.origin} import; importing that file again makes it what the file says (change it there to keep the change)`,
        );
      }
      return `${lines.join("\n")}\n`;
    }),
  );

  withConnection(
    knowledge
      .command("history")
      .description("every change of an entry you may see: when, who, and what it said then")
      .argument("<id>", "the entry's id, as nlq knowledge list shows it (a removed entry's too)"),
  ).action((id: string, given: Record<string, unknown>) =>
    runKnowledge("history", output, knowledgeIdOptionsSchema, { ...given, id }, async (options, context) => {
      const history: KnowledgeChange[] = await knowledgeHistoryForRole({
        database: context.database,
        dataSource: context.dataSource,
        id: options.id,
        viewer: context.editor,
        session: context.session,
        statementTimeoutMilliseconds: context.statementTimeoutMilliseconds,
      });
      if (history.length === 0) throw new NoSuchKnowledgeEntryError(options.id, "you may see");
      return options.json ? json({ id: options.id, history }) : formatKnowledgeHistory(options.id, history);
    }),
  );

  withConnection(
    knowledge
      .command("export")
      .description("write the entries you may see as a YAML file nlq knowledge import reads")
      .option("--out <file>", "write to this file (default: standard output)"),
  ).action((given: Record<string, unknown>) =>
    runKnowledge("export", output, knowledgeExportOptionsSchema, given, async (options, context) => {
      const rows = await visibleEntries(context);
      const yaml = formatKnowledgeYaml(rows);
      if (options.out === undefined) return yaml;
      await writeFile(options.out, yaml);
      const written = rows.filter((row) => row.kind !== "reading").length;
      return options.json
        ? json({ out: options.out, entries: written })
        : `wrote ${written} entries to ${options.out}\n`;
    }),
  );

  withConnection(
    knowledge
      .command("accept")
      .description("accept a suggestion (administrators): it becomes an entry shared with every role")
      .argument("<id>", "the suggestion's id, as nlq knowledge list --suggestions shows it"),
  ).action((id: string, given: Record<string, unknown>) =>
    runKnowledge("accept", output, knowledgeIdOptionsSchema, { ...given, id }, async (options, context) => {
      if (!context.editor.administrator) throw new NotAnAdministratorError(context.administratorRole);
      const entry = await new KnowledgeStore(context.database).accept(context.dataSource, options.id, context.editor);
      if (!entry) throw new NoSuchKnowledgeEntryError(options.id, "waiting as a suggestion");
      const view = knowledgeEntryView(entry, context.editor.role);
      return options.json
        ? json({ accepted: view })
        : `accepted ${view.kind} «${view.name}», shared with every role, id ${view.id}\n`;
    }),
  );
}

const noSuchKnowledgeEntryErrorMarker = Symbol.for("nlq.error.NoSuchKnowledgeEntryError");

/** No entry of that id the role may act on (never saying whether another role's exists). SQLSTATE 42704. */
export class NoSuchKnowledgeEntryError extends NlqError {
  readonly [noSuchKnowledgeEntryErrorMarker] = true;

  static override isInstance(error: unknown): error is NoSuchKnowledgeEntryError {
    return NlqError.hasMarker(error, noSuchKnowledgeEntryErrorMarker);
  }

  constructor(id: string, what: string) {
    super(`no knowledge entry ${id} ${what} on this database`, { code: "42704" });
  }
}

const notAnAdministratorErrorMarker = Symbol.for("nlq.error.NotAnAdministratorError");

/** Only an administrator may do this (accept a suggestion). SQLSTATE 42501. */
export class NotAnAdministratorError extends NlqError {
  readonly [notAnAdministratorErrorMarker] = true;

  static override isInstance(error: unknown): error is NotAnAdministratorError {
    return NlqError.hasMarker(error, notAnAdministratorErrorMarker);
  }

  constructor(administratorRole: string) {
    super(`only an administrator (a superuser or a member of ${administratorRole}) accepts suggestions`, {
      code: "42501",
    });
  }
}

const knowledgeEntryNotEditableErrorMarker = Symbol.for("nlq.error.KnowledgeEntryNotEditableError");

/**
 * The role sees the entry but may not change it: one an administrator shared (only administrators change those).
 * SQLSTATE 42501 (insufficient privilege).
 */
export class KnowledgeEntryNotEditableError extends NlqError {
  readonly [knowledgeEntryNotEditableErrorMarker] = true;

  static override isInstance(error: unknown): error is KnowledgeEntryNotEditableError {
    return NlqError.hasMarker(error, knowledgeEntryNotEditableErrorMarker);
  }

  constructor(id: string, administratorRole: string) {
    super(
      `knowledge entry ${id} is shared with every role: only an administrator (a superuser or a member of ${administratorRole}) changes it`,
      { code: "42501" },
    );
  }
}
