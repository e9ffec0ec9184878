import pg from "pg";
import type { AuthQuerySettings } from "../config/proxy-server-settings";
import type { ProxyLogger } from "../server/proxy-logger";
import { UpstreamLoginError } from "./authentication-failed-error";
import { parseScramVerifier, type ScramVerifier } from "./scram-verifier";

/** Where the proxy reads a role's SCRAM verifier when it authenticates clients itself. */
export interface AuthSource {
  /** The role's verifier; undefined when the role does not exist or has no SCRAM-SHA-256 secret. */
  lookup(role: string): Promise<ScramVerifier | undefined>;
  close(): Promise<void>;
}

/**
 * An `AuthSource` running `settings.query` (`$1` = the role) as the auth user (`settings.url`), in a small pool. The
 * query's second column is the verifier. A failing query rejects with `UpstreamLoginError` (28000); its cause is logged.
 */
export function createAuthQuery(settings: AuthQuerySettings, logger: ProxyLogger): AuthSource {
  const pool = new pg.Pool({ connectionString: settings.url, max: 4, idleTimeoutMillis: 30_000 });
  pool.on("error", (error) => logger.warn("auth query connection error", { error: error.message }));
  return {
    async lookup(role) {
      let rows: unknown[][];
      try {
        rows = (await pool.query<unknown[]>({ text: settings.query, values: [role], rowMode: "array" })).rows;
      } catch (error) {
        logger.error("the auth query failed", { error });
        throw new UpstreamLoginError("the nlq proxy could not look up the role (auth query failed; see the proxy log)");
      }
      const verifier = rows[0]?.[1];
      return typeof verifier === "string" ? parseScramVerifier(verifier) : undefined;
    },
    close: () => pool.end(),
  };
}
