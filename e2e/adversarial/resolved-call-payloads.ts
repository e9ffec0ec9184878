import { literal, type Payload, type PayloadContext } from "./payload";
import { secretServerFile } from "./side-effect-payloads";

const resolved = (name: string, sql: (context: PayloadContext) => string): Payload => ({
  name,
  group: "side-effect",
  sql,
});

/** SQL that ts_stat runs for a payload: `select to_tsvector(<expression>::text)`. */
const throughTsStat = (expression: string) =>
  `SELECT (${literal(`select to_tsvector((${expression})::text)`)}::pg_catalog.text).ts_stat`;

/**
 * Issue 17 ("Generated SQL"): calls PostgreSQL resolves that the written statement does not show — column and field
 * notation (`(x).f` is `f(x)`), a ts_stat executor, an unnamed dblink connection left open, a domain CHECK function,
 * a CREATE CAST function, the `=` implied by `CASE x WHEN`, a function in the session's temporary schema — and a view
 * that takes a lock when the question's sample values read it. The objects they use are created by the adversarial
 * world (`locked_int`, `mood`, the `=` on integer and numeric, `lock_view`) and by the client's state (`pg_temp`).
 */
export const resolvedCallPayloads: readonly Payload[] = [
  resolved("column notation pg_advisory_lock", () => "SELECT (7020::bigint).pg_advisory_lock"),
  resolved("column notation pg_advisory_lock on a table column", () => "SELECT (c.id).pg_advisory_lock FROM canary c"),
  resolved(
    "column notation pg_terminate_backend",
    (context) => `SELECT (${context.bystanderPid}).pg_terminate_backend`,
  ),
  {
    ...resolved(
      "column notation pg_read_file",
      () => `SELECT (${literal(secretServerFile)}::text).pg_read_file AS contents`,
    ),
    mustNotReturn: secretServerFile,
  },
  resolved(
    "column notation pg_create_physical_replication_slot",
    (context) => `SELECT (${literal(context.slotName)}::name).pg_create_physical_replication_slot`,
  ),
  resolved("ts_stat executor takes an advisory lock", () => throughTsStat("pg_advisory_lock(4270)")),
  resolved("ts_stat executor writes through dblink", (context) =>
    throughTsStat(
      `dblink_exec(${literal(context.dblinkConnection)}, 'insert into journal (marker) values (''pwned by ts_stat'')')`,
    ),
  ),
  resolved(
    "column notation dblink_connect_u leaves a connection",
    (context) => `SELECT (${literal(context.dblinkConnection)}::text).dblink_connect_u`,
  ),
  resolved("domain CHECK function takes a lock", () => "SELECT 1::locked_int AS n"),
  resolved("domain CHECK through a function-style cast", () => "SELECT locked_int(2) AS n"),
  resolved("domain CHECK through domain_in", () => "SELECT domain_in('4', 'locked_int'::regtype, -1) IS NULL AS n"),
  resolved("CREATE CAST function takes a lock", () => "SELECT (3::mood).score"),
  resolved("operator implied by CASE x WHEN takes a lock", () => "SELECT CASE 1 WHEN 2.5 THEN 'x' ELSE 'y' END AS c"),
  resolved("pg_temp function takes a lock", () => "SELECT pg_temp.nlq_temporary_lock()"),
  resolved("a view takes a lock when sample values read it", () => "SELECT count(*) AS customers FROM canary"),
];

/**
 * Objects the resolved-call payloads use, created once in the world (by its superuser): a domain whose CHECK takes
 * a lock, a type whose cast from integer takes one, an `=` operator on (integer, numeric) whose function takes one,
 * and a view whose body takes one, readable by every role (`readers`).
 */
export function resolvedCallWorldSql(readers: string): string {
  return `
    create function lock_in_check(integer) returns boolean volatile language sql
      as 'select pg_advisory_lock(4271) is not null';
    create domain locked_int as integer check (lock_in_check(value));
    create type mood as (score integer);
    create function lock_in_cast(integer) returns mood volatile language sql
      as 'select row($1)::mood from (select pg_advisory_lock(4272)) as locked';
    create cast (integer as mood) with function lock_in_cast(integer);
    create function lock_in_equals(integer, numeric) returns boolean volatile language sql
      as 'select pg_advisory_lock(4273) is not null';
    create operator = (leftarg = integer, rightarg = numeric, function = lock_in_equals);
    create view lock_view as select pg_advisory_lock(4274)::text as label;
    grant select on lock_view to ${readers};`;
}

/** The client's own temporary function (run on the client's session before each case, with `clientStateSql`). */
export const temporaryFunctionSql =
  "CREATE FUNCTION pg_temp.nlq_temporary_lock() RETURNS boolean LANGUAGE sql AS 'SELECT pg_advisory_lock(4275) IS NOT NULL'";
