import { createPgExecutor, createQuestionAnswerer, type QdrantSettings } from "@nlq/adapters";
import type { Settings } from "@nlq/engine";
import type { QuestionTarget } from "@nlq/eval";
import pg from "pg";
import { checkDatabaseUrl, UsageError } from "./cli-input";

type Evaluation = typeof import("@nlq/eval");

/** A PostgreSQL database name a question file may name: what `CREATE DATABASE` takes unquoted, or any up to 63 bytes. */
function checkDatabaseName(name: string): string {
  if (name.length === 0 || Buffer.byteLength(name) > 63 || /[\0/?#%]/.test(name))
    throw new UsageError(`question file: "${name}" is not a database name`);
  return name;
}

/** `url` with its database replaced by `database`: the same server, user and parameters. */
export function databaseUrl(url: string, database: string): string {
  const target = new URL(url);
  target.pathname = `/${encodeURIComponent(checkDatabaseName(database))}`;
  return checkDatabaseUrl(target.toString(), "--url");
}

export interface QuestionTargetsOptions {
  /** `--url`: the server and user every question database is reached with. */
  readonly url: string;
  readonly settings: Settings;
  readonly evaluation: Evaluation;
  /** The metadata store, as `nlq ask` opens it (the catalog index of each database, when there is one). */
  readonly store?: Parameters<typeof createQuestionAnswerer>[0]["store"];
  readonly qdrant?: QdrantSettings;
  readonly onIndexError: (error: unknown) => void;
}

/**
 * Questions that name their own `database` are asked there, on the server and as the user of `--url`: each database
 * gets its own connection, evaluation executor and question composition (so its catalog index and background value
 * index are that database's, as `nlq ask --url <that database>` would use). One connection is open at a time — the
 * database of the question being asked — and `close` ends it.
 */
export function createQuestionTargets(options: QuestionTargetsOptions) {
  let open: { database: string; client: pg.Client; target: QuestionTarget } | undefined;
  const close = async () => {
    const closing = open;
    open = undefined;
    await closing?.client.end().catch(() => undefined);
  };
  const composition = (url: string) =>
    createQuestionAnswerer({
      ...(options.store === undefined ? {} : { store: options.store }),
      url,
      ...(options.qdrant === undefined ? {} : { qdrant: options.qdrant }),
      backgroundValueIndexes: true,
      // The build logs in as the session did: from --url and, for a password it lacks, PGPASSWORD or ~/.pgpass.
      ambientCredentials: true,
      onIndexError: options.onIndexError,
    });
  return {
    /** The composition `--url`'s own database uses. */
    composition,
    /** The target of a question with a `database`; undefined for one without (it uses `--url`'s). */
    targetFor: async (question: { readonly database?: string }): Promise<QuestionTarget | undefined> => {
      if (question.database === undefined) return undefined;
      if (open?.database === question.database) return open.target;
      await close();
      const url = databaseUrl(options.url, question.database);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const session = createPgExecutor(client, { name: "nlq-eval" });
      const target: QuestionTarget = {
        session,
        execute: options.evaluation.createEvaluationExecutor({
          session,
          statementTimeoutMilliseconds: options.settings.statementTimeoutMilliseconds,
          allowedFunctions: options.settings.allowedFunctions,
        }),
        answerer: composition(url),
      };
      open = { database: question.database, client, target };
      return target;
    },
    close,
  };
}
