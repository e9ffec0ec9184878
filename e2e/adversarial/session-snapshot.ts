import type pg from "pg";
import { temporaryFunctionSql } from "./resolved-call-payloads";

/** Settings whose value a question must never change, read with current_setting on the client's own session. */
export const watchedSettings = [
  "search_path",
  "standard_conforming_strings",
  "escape_string_warning",
  "backslash_quote",
  "statement_timeout",
  "lock_timeout",
  "idle_in_transaction_session_timeout",
  "role",
  "session_authorization",
  "transaction_read_only",
  "default_transaction_read_only",
  "transaction_isolation",
  "session_replication_role",
  "application_name",
  "client_min_messages",
  "work_mem",
  "DateStyle",
  "TimeZone",
] as const;

/**
 * What the client's session looks like from inside: settings (every one set by the session or the client, plus the
 * watched list), users, prepared statements, cursors, LISTEN channels, temporary relations, dblink connections,
 * the client's temporary sequence and the transaction id. Read on the client's own connection.
 */
export const sessionSnapshotSql = `SELECT json_build_object(
  'changed settings', (SELECT json_agg(json_build_array(name, setting, source) ORDER BY name)
                       FROM pg_settings WHERE source IN ('session', 'client')),
  'watched settings', json_build_array(${watchedSettings.map((name) => `current_setting('${name}')`).join(", ")}),
  'users', json_build_array(current_user, session_user),
  'prepared statements', (SELECT json_agg(name ORDER BY name) FROM pg_prepared_statements),
  'cursors', (SELECT json_agg(name ORDER BY name) FROM pg_cursors),
  'listening channels', (SELECT json_agg(channel ORDER BY channel) FROM pg_listening_channels() AS channel),
  'temporary relations', (SELECT json_agg(relname ORDER BY relname) FROM pg_class WHERE relnamespace = pg_my_temp_schema()),
  'dblink connections', (SELECT public.dblink_get_connections()),
  'client sequence', (SELECT json_build_array(last_value, is_called) FROM pg_temp.nlq_client_sequence),
  'transaction id', txid_current_if_assigned()::text,
  'backend pid', pg_backend_pid()
) AS snapshot`;

export type SessionSnapshot = Record<string, unknown>;

/** Reads the snapshot on the client's session (it must not be in a failed transaction). */
export async function readSessionSnapshot(client: pg.Client): Promise<SessionSnapshot> {
  const result = await client.query<{ snapshot: SessionSnapshot }>(sessionSnapshotSql);
  return result.rows[0]?.snapshot ?? {};
}

/**
 * The session's state before the case: a temporary sequence, a prepared statement, a session advisory lock and a
 * temporary function (which takes a lock: the `pg_temp` payload calls it).
 */
export const clientStateSql = [
  "CREATE TEMPORARY SEQUENCE nlq_client_sequence",
  temporaryFunctionSql,
  "SELECT nextval('nlq_client_sequence')",
  "PREPARE nlq_client_statement AS SELECT 1",
  "SELECT pg_advisory_lock(7)",
];
