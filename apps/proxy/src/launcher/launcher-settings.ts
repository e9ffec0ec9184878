import path from "node:path";
import { nlqStateDirectory } from "@nlq/adapters";
import { ConfigurationError } from "@nlq/engine";

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
  /** `NLQ_PROXY_PORT`: the proxy. Default 6432. */
  readonly proxyPort: number;
  /** `NLQ_WEB_PORT`: the web app. Default 3000. */
  readonly webPort: number;
  /** Start the web app (`--no-web` turns it off). Default true. */
  readonly web: boolean;
}

/** The port variables, their defaults and what they configure (for messages). */
export const portVariables = {
  NLQ_EMBEDDED_PORT: { fallback: 54_320, part: "the embedded PostgreSQL" },
  NLQ_PROXY_PORT: { fallback: 6_432, part: "the proxy" },
  NLQ_WEB_PORT: { fallback: 3_000, part: "the web app" },
} as const;

export type PortVariable = keyof typeof portVariables;

export function resolveLauncherSettings(
  environment: NodeJS.ProcessEnv,
  options: { readonly web?: boolean } = {},
): LauncherSettings {
  return {
    stateDirectory: path.resolve(nlqStateDirectory(environment)),
    host: "127.0.0.1",
    databaseUrl: nonEmpty(environment.DATABASE_URL),
    embeddedPort: port(environment, "NLQ_EMBEDDED_PORT"),
    metadataUrl: nonEmpty(environment.NLQ_METADATA_URL),
    proxyPort: port(environment, "NLQ_PROXY_PORT"),
    webPort: port(environment, "NLQ_WEB_PORT"),
    web: options.web ?? true,
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== "" ? value.trim() : undefined;
}

function port(environment: NodeJS.ProcessEnv, variable: PortVariable): number {
  const text = nonEmpty(environment[variable]);
  if (text === undefined) return portVariables[variable].fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0 || value > 65_535) {
    throw new ConfigurationError(`${variable} must be a TCP port number (0-65535), got "${text}"`);
  }
  return value;
}
