import path from "node:path";
import { nlqStateDirectory } from "@nlq/adapters";
import { loadServiceSettings } from "@nlq/engine";

/** Everything `nlq start` needs to know, resolved from the environment and command-line options. */
export interface LauncherSettings {
  /** `$NLQ_HOME/.nlq`: the embedded PostgreSQL's data lives in `postgres/` (its log in `postgres.log`). */
  readonly stateDirectory: string;
  /** Interface every part listens on. Always 127.0.0.1: nothing is exposed beyond this machine. */
  readonly host: string;
  /** `DATABASE_URL`: the user's PostgreSQL. Unset → the embedded PostgreSQL's `demo` database. */
  readonly databaseUrl: string | undefined;
  /** `NLQ_EMBEDDED_PORT`: TCP port of the embedded PostgreSQL (0 picks a free one). Default 54320. */
  readonly embeddedPort: number;
  /** `NLQ_METADATA_URL`: PostgreSQL URL of the metadata store. Unset → the embedded PostgreSQL's `nlq_metadata`. */
  readonly metadataUrl: string | undefined;
  /** `NLQ_MIGRATIONS_DIR`: the metadata store's migrations. Unset → the repository's `migrations/`. */
  readonly migrationsDirectory: string | undefined;
  /** `NLQ_PROXY_PORT`: the proxy. Default 6432. */
  readonly proxyPort: number;
  /** `NLQ_WEB_PORT`: the web app. Default 3000. */
  readonly webPort: number;
  /** Start the web app (`--no-web` turns it off). Default true. */
  readonly web: boolean;
}

/** The port variables and what they configure (for messages); their defaults are in `ServiceSettings`. */
export const portVariables = {
  NLQ_EMBEDDED_PORT: { part: "the embedded PostgreSQL" },
  NLQ_PROXY_PORT: { part: "the proxy" },
  NLQ_WEB_PORT: { part: "the web app" },
} as const;

export type PortVariable = keyof typeof portVariables;

/** Reads the launcher's settings through the one settings schema (`loadServiceSettings`); throws `ConfigurationError`. */
export function resolveLauncherSettings(
  environment: Readonly<Record<string, string | undefined>>,
  options: { readonly web?: boolean } = {},
): LauncherSettings {
  const service = loadServiceSettings(environment);
  return {
    stateDirectory: path.resolve(nlqStateDirectory(service.home)),
    host: "127.0.0.1",
    databaseUrl: service.databaseUrl,
    embeddedPort: service.embeddedPort,
    metadataUrl: service.metadataUrl,
    migrationsDirectory: service.migrationsDirectory,
    proxyPort: service.proxyPort,
    webPort: service.webPort,
    web: options.web ?? true,
  };
}
