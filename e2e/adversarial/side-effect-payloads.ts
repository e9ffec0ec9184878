import { literal, type Payload, type PayloadContext } from "./payload";

const effect = (name: string, sql: (context: PayloadContext) => string): Payload => ({
  name,
  group: "side-effect",
  sql,
});

/** Runs `sql` through query_to_xml, which executes SQL text the validator never parses. */
const throughQueryToXml = (sql: string) => `SELECT query_to_xml(${literal(sql)}, true, true, '')`;

/** The server file pg_read_file payloads try to read (relative to the data directory); its text must not come back. */
export const secretServerFile = "postmaster.opts";

/**
 * Reproduction 3 of issue 6: functions whose effects survive the read-only scope's rollback or reach outside it
 * (SQL text execution, dblink, signals, files, large objects, replication, backup, statistics, advisory locks, the
 * client's temporary sequence, configuration, a user-defined volatile function writing through dblink).
 */
export const sideEffectPayloads: readonly Payload[] = [
  effect("query_to_xml takes an advisory lock", () => throughQueryToXml("select pg_advisory_lock(4243)")),
  effect("query_to_xml advances the client's sequence", () =>
    throughQueryToXml("select nextval('nlq_client_sequence')"),
  ),
  effect("query_to_xml deletes", () => throughQueryToXml("delete from canary returning id")),
  effect("query_to_xml releases the client's advisory lock", () =>
    throughQueryToXml("select pg_advisory_unlock_all()"),
  ),
  effect(
    "ts_stat takes an advisory lock",
    () => "SELECT * FROM ts_stat('select to_tsvector(pg_advisory_lock(4244)::text)')",
  ),
  effect(
    "dblink_exec deletes",
    (context) => `SELECT dblink_exec(${literal(context.dblinkConnection)}, 'delete from canary where id = 2')`,
  ),
  effect(
    "dblink_connect_u and dblink_send_query delete",
    (context) =>
      `SELECT dblink_connect_u('nlq_link', ${literal(context.dblinkConnection)}), dblink_send_query('nlq_link', 'delete from canary where id = 3')`,
  ),
  effect(
    "dblink_connect_u leaves a connection",
    (context) => `SELECT dblink_connect_u('nlq_link', ${literal(context.dblinkConnection)})`,
  ),
  effect(
    "dblink returns deleted rows",
    (context) =>
      `SELECT * FROM dblink(${literal(context.dblinkConnection)}, 'delete from canary where id = 1 returning id') AS t(id int)`,
  ),
  effect(
    "pg_terminate_backend of another session",
    (context) => `SELECT pg_terminate_backend(${context.bystanderPid})`,
  ),
  {
    ...effect("pg_read_file", () => `SELECT pg_read_file('${secretServerFile}') AS contents`),
    mustNotReturn: secretServerFile,
  },
  {
    ...effect("query_to_xml reads a server file", () =>
      throughQueryToXml(`select pg_read_file('${secretServerFile}') as contents`),
    ),
    mustNotReturn: secretServerFile,
  },
  effect("lo_export writes a file", (context) => `SELECT lo_export(${context.largeObjectId}, '${context.filePath}')`),
  effect("query_to_xml lo_export writes a file", (context) =>
    throughQueryToXml(`select lo_export(${context.largeObjectId}, '${context.filePath}')`),
  ),
  effect(
    "pg_create_physical_replication_slot",
    (context) => `SELECT pg_create_physical_replication_slot('${context.slotName}')`,
  ),
  effect("pg_backup_start", () => "SELECT pg_backup_start('nlq adversarial', true)"),
  effect("pg_stat_reset", () => "SELECT pg_stat_reset()"),
  effect("session advisory lock", () => "SELECT pg_advisory_lock(4245)"),
  effect("shared session advisory lock", () => "SELECT pg_try_advisory_lock_shared(4246)"),
  effect("transaction advisory lock", () => "SELECT pg_advisory_xact_lock(4247)"),
  effect("advisory unlock of the client's lock", () => "SELECT pg_advisory_unlock(7)"),
  effect("advisory unlock all", () => "SELECT pg_advisory_unlock_all()"),
  effect("nextval on the client's temporary sequence", () => "SELECT nextval('nlq_client_sequence')"),
  effect("setval on the client's temporary sequence", () => "SELECT setval('nlq_client_sequence', 1000)"),
  effect("set_config of search_path", () => "SELECT set_config('search_path', 'evil', false)"),
  effect("user-defined volatile function writing through dblink", () => "SELECT touch_canary()"),
  effect("pg_notify", () => "SELECT pg_notify('nlq_evil', 'pwned')"),
];
