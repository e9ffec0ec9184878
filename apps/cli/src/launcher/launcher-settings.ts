import path from "node:path";
import { nlqStateDirectory, serviceSettingsFrom, serviceVariables } from "@nlq/adapters";
import { parseEnvironment, portVariable } from "@nlq/engine";
import { proxyServerSettingsFrom, proxyVariables } from "@nlq/proxy";

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

/** The variables only `nlq start` reads: the ports of the parts it runs besides the proxy. */
export const launcherVariables = {
  NLQ_WEB_PORT: portVariable(3_000),
  NLQ_EMBEDDED_PORT: portVariable(54_320),
};

/** The port variables and what they configure (for messages); their defaults are in `launcherVariables` and `proxyVariables`. */
export const portVariables = {
  NLQ_EMBEDDED_PORT: { part: "the embedded PostgreSQL" },
  NLQ_PROXY_PORT: { part: "the proxy" },
  NLQ_WEB_PORT: { part: "the web app" },
} as const;

export type PortVariable = keyof typeof portVariables;

/**
 * Reads the launcher's settings with the pipeline's, the shared, the proxy's and its own variables in one pass (one
 * `ConfigurationError` names every bad one).
 */
export function resolveLauncherSettings(
  environment: Readonly<Record<string, string | undefined>>,
  options: { readonly web?: boolean } = {},
): LauncherSettings {
  const values = parseEnvironment(environment, { ...serviceVariables, ...proxyVariables, ...launcherVariables });
  const service = serviceSettingsFrom(values);
  const proxy = proxyServerSettingsFrom(values);
  return {
    stateDirectory: path.resolve(nlqStateDirectory(service.home)),
    host: "127.0.0.1",
    databaseUrl: service.databaseUrl,
    embeddedPort: values.NLQ_EMBEDDED_PORT,
    metadataUrl: service.metadataUrl,
    migrationsDirectory: service.migrationsDirectory,
    proxyPort: proxy.proxyPort,
    webPort: values.NLQ_WEB_PORT,
    web: options.web ?? true,
  };
}
