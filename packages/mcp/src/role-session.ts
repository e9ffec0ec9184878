import type { BackgroundValueIndexes, MetadataStore, QdrantSettings } from "@nlq/adapters";
import type { QueryExecutor, Settings } from "@nlq/engine";

/**
 * One PostgreSQL role's connection as the MCP tools use it: every statement of every tool runs on `session`, so the
 * role's grants and row-level security decide what any tool can read. Over stdio that is the URL's role; over HTTP the
 * role the client authenticated as (`McpHttpServer`).
 */
export interface RoleSession {
  /** The role's own connection (`createPgExecutor` over a `pg.Client` logged in as the role). */
  readonly session: QueryExecutor;
  /** The database URL as this role, without its password (identifies the indexed data source for `ask`). */
  readonly url: string;
  /** The PostgreSQL role the connection logged in as; the audit trail records it. Default: the URL's user. */
  readonly roleName?: string;
  /** Where the client connects from (HTTP: the request's address); the audit trail records it. Default: unknown. */
  readonly clientAddress?: string;
  /**
   * How a background value-index build logs in as this role on a connection of its own, exactly as `session` did: the
   * URL with the password the session logged in with (over HTTP the client's own), and whether node-postgres may fill
   * a missing one from `PGPASSWORD` or a password file (only when the session's URL had none and it took them: stdio,
   * whose runner is the asker). A function, so the password is no field of an object anyone might print. Absent: no
   * background build (the bounded live value lookup only).
   */
  readonly backgroundLogin?: () => BackgroundLogin;
  /**
   * Runs `work` once the calls before it on this connection have finished: one connection runs one statement at a
   * time, and a client may send several tool calls at once.
   */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
}

/** The asking role's login for a connection of its own (`connectBackground`'s URL and `ambientCredentials`). */
export interface BackgroundLogin {
  /** The database as the role, with the password the role's session logged in with (if it had one in its URL). */
  readonly url: string;
  readonly ambientCredentials: boolean;
}

/** What every role's tools share: settings, the metadata store, output caps. */
export interface McpToolSettings {
  /** Pipeline settings (`loadSettings(environment)`): models, caps, timeouts, allowed functions. */
  readonly settings: Settings;
  /** Settings of a built-in preset named by an `ask` call (`loadSettings({ ...environment, NLQ_PRESET })`). */
  readonly settingsForPreset: (preset: string) => Settings;
  /** The metadata store (catalog index, query log, response cache), when there is one. */
  readonly metadataStore?: MetadataStore;
  readonly qdrant?: QdrantSettings;
  /** Most rows a tool result carries (`ask`, `run_sql`); the pipeline's own cap (`NLQ_ROW_LIMIT`) applies first. */
  readonly maxRows: number;
  /**
   * `NLQ_WEB_EXAMPLE_ADMIN_ROLE`: members (and superusers) are administrators, whose confirmed readings
   * (`choose_reading` with `remember`) apply to every role. Default `nlq_example_admin`.
   */
  readonly administratorRole?: string;
  /**
   * Value indexes built in the background for databases nothing is indexed for, per database and role, over the
   * asking role's own login (`RoleSession.backgroundLogin`; `createQuestionAnswerer`'s `backgroundValueIndexes`):
   * `true` for the process's set (`nlq mcp`: stdio and HTTP servers are long-lived), or a set of the caller's.
   * Default: none (the bounded live value lookup on every question).
   */
  readonly backgroundValueIndexes?: BackgroundValueIndexes | boolean;
}

/** A queue of one: `exclusive` of `RoleSession` for a connection that must run one unit of work at a time. */
export function createExclusiveQueue(): RoleSession["exclusive"] {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>) => {
    const run = tail.then(work, work);
    tail = run.catch(() => undefined);
    return run;
  };
}
