import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { parseEnvironment } from "@nlq/engine";
import { sql } from "drizzle-orm";
import { serviceVariables } from "../config/service-settings";
import type { MetadataDatabase } from "../metadata/metadata-database";
import { metadataRows } from "./metadata-rows";

/** Raised when a builder finds that its lease expired and another process took it over. */
export class ValueIndexLeaseLostError extends Error {
  override readonly name = "ValueIndexLeaseLostError";
  static isInstance(error: unknown): error is ValueIndexLeaseLostError {
    return error instanceof Error && error.name === "ValueIndexLeaseLostError";
  }
}

export interface ValueIndexLeaseOptions {
  /** How long a lease lasts without a heartbeat. Default 60,000 ms (NLQ_VALUE_INDEX_LEASE_MS). */
  readonly ttlMilliseconds?: number;
  /** Who holds it. Default: this process (`host:pid:random`). */
  readonly holder?: string;
}

/** This process's lease holder name: host, pid and a random part (a restarted pid is another holder). */
export const processLeaseHolder = `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;

/** The lease's time to live: `NLQ_VALUE_INDEX_LEASE_MS` (at least 1,000), else 60 s. */
export function defaultLeaseMilliseconds(environment: NodeJS.ProcessEnv = process.env): number {
  return parseEnvironment(environment, { NLQ_VALUE_INDEX_LEASE_MS: serviceVariables.NLQ_VALUE_INDEX_LEASE_MS })
    .NLQ_VALUE_INDEX_LEASE_MS;
}

/** A lease this process holds on building one index (`acquireValueIndexLease`). */
export interface ValueIndexLease {
  readonly indexKey: string;
  readonly holder: string;
  /** Aborted when a heartbeat finds the lease gone (expired and taken over): the build must stop. */
  readonly signal: AbortSignal;
  /** Gives the lease up (the build ended). */
  release(): Promise<void>;
}

/**
 * Takes the lease on building `indexKey` when nobody holds it or its holder's lease expired (a dead or hung builder),
 * in one statement, so two builders never both get it (not even two of one process: a held lease is never re-entered). Heartbeats every third of the TTL move its expiry on; a
 * heartbeat that finds it lost aborts `signal`. Resolves undefined when another process holds it.
 */
export async function acquireValueIndexLease(
  database: MetadataDatabase,
  indexKey: string,
  options: ValueIndexLeaseOptions = {},
): Promise<ValueIndexLease | undefined> {
  const ttl = options.ttlMilliseconds ?? defaultLeaseMilliseconds();
  const holder = options.holder ?? processLeaseHolder;
  const taken = await metadataRows(
    database,
    sql`INSERT INTO value_index_leases (index_key, holder, expires_at)
        VALUES (${indexKey}, ${holder}, now() + ${ttl} * interval '1 millisecond')
        ON CONFLICT (index_key) DO UPDATE SET holder = excluded.holder, acquired_at = now(), heartbeat_at = now(),
          expires_at = excluded.expires_at
        WHERE value_index_leases.expires_at < now()
        RETURNING holder`,
  );
  if (taken.length === 0) return undefined;
  const controller = new AbortController();
  const beat = async () => {
    const kept = await metadataRows(
      database,
      sql`UPDATE value_index_leases SET heartbeat_at = now(), expires_at = now() + ${ttl} * interval '1 millisecond'
          WHERE index_key = ${indexKey} AND holder = ${holder} RETURNING holder`,
    ).catch(() => undefined); // An unreachable store: try again at the next beat; the expiry decides.
    if (kept !== undefined && kept.length === 0)
      controller.abort(new ValueIndexLeaseLostError(`the lease on ${indexKey} was taken over`));
  };
  const timer = setInterval(() => void beat(), Math.max(250, Math.floor(ttl / 3)));
  timer.unref();
  return {
    indexKey,
    holder,
    signal: controller.signal,
    async release() {
      clearInterval(timer);
      await metadataRows(
        database,
        sql`DELETE FROM value_index_leases WHERE index_key = ${indexKey} AND holder = ${holder} RETURNING holder`,
      );
    },
  };
}

/** The holder of `indexKey`'s lease while it has not expired, else undefined. */
export async function valueIndexLeaseHolder(database: MetadataDatabase, indexKey: string): Promise<string | undefined> {
  const [row] = await metadataRows<{ holder: string }>(
    database,
    sql`SELECT holder FROM value_index_leases WHERE index_key = ${indexKey} AND expires_at >= now()`,
  );
  return row?.holder;
}
