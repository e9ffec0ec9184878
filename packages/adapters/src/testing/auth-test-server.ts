import { chmodSync, chownSync, copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { startEmbeddedPostgres } from "../embedded-postgres/embedded-postgres-server";
import { serverUser } from "../embedded-postgres/server-user";
import type { TestCertificates } from "./test-certificates";

/** One login role per authentication method, with its password (none for trust). */
export const authTestRoles = {
  trust: { name: "nlq_auth_trust", password: undefined },
  password: { name: "nlq_auth_password", password: "cleartext-secret-1" },
  md5: { name: "nlq_auth_md5", password: "md5-secret-2" },
  scram: { name: "nlq_auth_scram", password: "scram-secret-3" },
} as const;

export type AuthMethod = keyof typeof authTestRoles;

/**
 * A role that logs in by trust and may only call `nlq_auth.lookup(role)`, a SECURITY DEFINER function returning
 * `(rolname, rolpassword)` from pg_authid: the auth user PgBouncer's documentation recommends for auth_query.
 */
export const authLookupRole = "nlq_auth_lookup";
export const authLookupQuery = "SELECT rolname, rolpassword FROM nlq_auth.lookup($1)";

/** A dedicated PostgreSQL (the embedded binaries) whose pg_hba.conf has one role per authentication method. */
export interface AuthTestServer {
  readonly host: string;
  readonly port: number;
  /** `postgresql://postgres@host:port/postgres`: the superuser, by trust. */
  readonly adminUrl: string;
  /** Whether the server accepts TLS (started with certificates). */
  readonly ssl: boolean;
  stop(): Promise<void>;
}

/**
 * Starts a throwaway PostgreSQL in a temporary directory (about 2 s: initdb, start) and configures it:
 * `nlq_auth_trust` logs in by `trust`, `nlq_auth_password` by `password` (cleartext), `nlq_auth_md5` by `md5` (its
 * password stored as an MD5 hash, so md5 really runs), `nlq_auth_scram` by `scram-sha-256`; `postgres` by trust.
 * With `certificates`, `ssl = on` with the server certificate. Never touches the shared server at 127.0.0.1:5432.
 */
export async function startAuthTestServer(certificates?: TestCertificates): Promise<AuthTestServer> {
  const home = mkdtempSync(path.join(tmpdir(), "nlq-auth-test-"));
  const directory = path.join(home, "postgres");
  const server = await startEmbeddedPostgres({ directory, port: 0, purpose: "auth test", grantBelow: home });
  try {
    const adminUrl = server.url("postgres");
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      const { trust, password, md5, scram } = authTestRoles;
      await admin.query(`create role ${trust.name} login`);
      await admin.query(`create role ${password.name} login password '${password.password}'`);
      await admin.query("set password_encryption = 'md5'");
      await admin.query(`create role ${md5.name} login password '${md5.password}'`);
      await admin.query("set password_encryption = 'scram-sha-256'");
      await admin.query(`create role ${scram.name} login password '${scram.password}'`);
      await admin.query(`create role ${authLookupRole} login`);
      await admin.query("create schema nlq_auth");
      await admin.query(
        `create function nlq_auth.lookup(role_name text) returns table (rolname name, rolpassword text)
         language sql security definer set search_path = pg_catalog
         as $$ select rolname, rolpassword from pg_catalog.pg_authid where rolname = role_name $$`,
      );
      await admin.query("revoke all on function nlq_auth.lookup(text) from public");
      await admin.query(`grant usage on schema nlq_auth to ${authLookupRole}`);
      await admin.query(`grant execute on function nlq_auth.lookup(text) to ${authLookupRole}`);
      writeFileSync(
        path.join(directory, "pg_hba.conf"),
        [
          `host all ${trust.name} 127.0.0.1/32 trust`,
          `host all ${password.name} 127.0.0.1/32 password`,
          `host all ${md5.name} 127.0.0.1/32 md5`,
          `host all ${scram.name} 127.0.0.1/32 scram-sha-256`,
          "host all postgres 127.0.0.1/32 trust",
          `host all ${authLookupRole} 127.0.0.1/32 trust`,
          "",
        ].join("\n"),
      );
      if (certificates !== undefined) {
        const user = serverUser(directory);
        for (const [source, target] of [
          [certificates.certificateFile, "server.crt"],
          [certificates.keyFile, "server.key"],
        ] as const) {
          const destination = path.join(directory, target);
          copyFileSync(source, destination);
          chmodSync(destination, 0o600);
          if (user !== undefined) chownSync(destination, user.uid, user.gid);
        }
        await admin.query("alter system set ssl = on");
      }
      await admin.query("select pg_reload_conf()");
    } finally {
      await admin.end();
    }
    await waitForReload(adminUrl, certificates !== undefined);
    return {
      host: server.host,
      port: server.port,
      adminUrl,
      ssl: certificates !== undefined,
      stop: async () => {
        await server.stop();
        rmSync(home, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await server.stop().catch(() => undefined);
    rmSync(home, { recursive: true, force: true });
    throw error;
  }
}

/**
 * The postmaster reloads asynchronously: poll until a new session sees `ssl` as configured and the SCRAM role cannot
 * log in without a password any more (initdb's `trust` for everyone is gone).
 */
async function waitForReload(adminUrl: string, ssl: boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  const scramUrl = new URL(adminUrl);
  scramUrl.username = authTestRoles.scram.name;
  for (;;) {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    let sslReady: boolean;
    try {
      const result = await admin.query<{ ssl: string }>("select current_setting('ssl') as ssl");
      sslReady = result.rows[0]!.ssl === (ssl ? "on" : "off");
    } finally {
      await admin.end();
    }
    const withoutPassword = new pg.Client({ connectionString: scramUrl.toString() });
    const hbaReady = await withoutPassword.connect().then(
      () => false,
      () => true,
    );
    await withoutPassword.end().catch(() => undefined);
    if (sslReady && hbaReady) return;
    if (Date.now() > deadline) throw new Error("the auth test server did not reload its configuration");
    await sleep(100);
  }
}
