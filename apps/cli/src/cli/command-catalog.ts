import type { Command } from "commander";

/** One `nlq` subcommand: what the top-level help lists, and how to load the module that registers it. */
export interface CatalogCommand {
  readonly name: string;
  /** The arguments as the command declares them (`<question>`), for the top-level listing. */
  readonly arguments: string;
  /** One line for `nlq --help`. */
  readonly summary: string;
  /** Imports the command's module (and, through it, the engine, the AI SDK, the parser…) and registers it. */
  readonly register: (program: Command) => Promise<void>;
}

/**
 * Every subcommand of `nlq`. `main.ts` loads only the module of the command being run, so `nlq --help` and
 * `nlq --version` start without importing the engine, the AI SDK providers, libpg-query or the evaluation harness.
 * `command-catalog.test.ts` checks that this list and the registered commands agree.
 */
export const commandCatalog: readonly CatalogCommand[] = [
  {
    name: "start",
    arguments: "",
    summary: "start everything: embedded PostgreSQL with demo data, metadata store, proxy and web app",
    register: async (program) => (await import("./start-command")).registerStartCommand(program),
  },
  {
    name: "proxy",
    arguments: "",
    summary: "run the PostgreSQL wire-protocol proxy (SQL passes through, /* nl: question */ is answered)",
    register: async (program) => (await import("./proxy-command")).registerProxyCommand(program),
  },
  {
    name: "ask",
    arguments: "<question>",
    summary: "answer one question in natural language on a PostgreSQL database (read-only)",
    register: async (program) => (await import("./ask-command")).registerAskCommand(program),
  },
  {
    name: "mcp",
    arguments: "",
    summary: "serve ask, run_sql, search_schema and explain to AI assistants over MCP (stdio or HTTP), as your role",
    register: async (program) => (await import("./mcp-command")).registerMcpCommand(program),
  },
  {
    name: "log",
    arguments: "",
    summary: "list the audit trail: who asked what from where, the SQL that ran (your role's entries; admins: all)",
    register: async (program) => (await import("./log-command")).registerLogCommand(program),
  },
  {
    name: "knowledge",
    arguments: "",
    summary: "the knowledge base of a database: add, list, import (dbt, YAML), remove, export, accept suggestions",
    register: async (program) => (await import("./knowledge-command")).registerKnowledgeCommand(program),
  },
  {
    name: "cache",
    arguments: "",
    summary: "clear the cache of model responses: all of it, or one data source's (it also expires on its own)",
    register: async (program) => (await import("./cache-command")).registerCacheCommand(program),
  },
  {
    name: "demo",
    arguments: "",
    summary: 'the demo database "Hearth & Harbor": load it into a PostgreSQL database or print it as SQL',
    register: async (program) => (await import("./demo-command")).registerDemoCommand(program),
  },
  {
    name: "index",
    arguments: "",
    summary: "index a database's catalog (tables, columns, keys, descriptions, statistics, values, embeddings)",
    register: async (program) => (await import("./index-command")).registerIndexCommand(program),
  },
  {
    name: "eval",
    arguments: "",
    summary: "execution accuracy of a candidate pool or of the engine on questions with gold SQL",
    register: async (program) => (await import("./eval-command")).registerEvalCommand(program),
  },
  {
    name: "selector-data",
    arguments: "",
    summary:
      "selection-agent training data: the engine's candidates for questions with gold SQL, as labelled A/B pairs",
    register: async (program) => (await import("./selector-data-command")).registerSelectorDataCommand(program),
  },
  {
    name: "bench",
    arguments: "",
    summary: "run a benchmark and print its figures (retrieval, values, prompt-size, schema-selection, presets)",
    register: async (program) => (await import("./bench-command")).registerBenchCommand(program),
  },
];

/**
 * The catalog entry of the command `argv` runs (`nlq ask …`, `nlq help ask`), `"none"` when it names no command
 * (`nlq`, `nlq --help`, `nlq --version`), or `"unknown"` for a word that is not a command (commander then reports
 * it, with suggestions, once every command is registered).
 */
export function commandToRun(userArguments: readonly string[]): CatalogCommand | "none" | "unknown" {
  const words = userArguments.filter((argument) => !argument.startsWith("-"));
  const name = words[0] === "help" ? words[1] : words[0];
  if (name === undefined) return "none";
  return commandCatalog.find((command) => command.name === name) ?? "unknown";
}

/** Registers `command` as a listing only (name, arguments, summary) for the top-level help. */
export function registerListing(program: Command, command: CatalogCommand): void {
  const listed = program.command(command.name).summary(command.summary);
  if (command.arguments !== "") listed.arguments(command.arguments);
}
