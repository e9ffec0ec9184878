import type { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { isAddressInUse, PortInUseError } from "./launcher-errors";
import type { PortVariable } from "./launcher-settings";

/** A PGlite instance reachable over TCP with the PostgreSQL wire protocol. */
export interface ServedPglite {
  /** The port actually bound (differs from the requested one when that was 0). */
  readonly port: number;
  /** `postgresql://postgres@host:port/postgres`. */
  readonly url: string;
  /** Stops accepting and ends open connections; the PGlite instance stays open. */
  stop(): Promise<void>;
}

/**
 * Connections at once on one served PGlite. They all share PGlite's **single backend session**:
 * statements are queued one at a time, and session state (SET, temporary tables, an open transaction)
 * is visible to every connection. Right for a local demo, not for testing session semantics.
 */
export const SERVED_PGLITE_MAX_CONNECTIONS = 64;

/** Serves `pglite` on `host:port` with `@electric-sql/pglite-socket`. */
export async function servePglite(
  pglite: PGlite,
  options: { readonly host: string; readonly port: number; readonly variable: PortVariable },
): Promise<ServedPglite> {
  const server = new PGLiteSocketServer({
    db: pglite,
    host: options.host,
    port: options.port,
    maxConnections: SERVED_PGLITE_MAX_CONNECTIONS,
  });
  try {
    await server.start();
  } catch (error) {
    if (isAddressInUse(error)) {
      throw new PortInUseError({ port: options.port, host: options.host, variable: options.variable, cause: error });
    }
    throw error;
  }
  const port = Number(server.getServerConn().split(":").at(-1));
  let stopped = false;
  return {
    port,
    url: `postgresql://postgres@${options.host}:${port}/postgres`,
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.stop();
    },
  };
}
