import { fixed, type Payload } from "./payload";

const classic = (name: string, sql: string) => fixed(name, "classic", sql);

/**
 * The classic payloads that already stay refused or harmless (issue 6: "41 classic payloads"): DML, DDL,
 * data-modifying CTEs, multi-statements, session commands, COPY, EXPLAIN ANALYZE, locking, transaction control,
 * procedural code, maintenance, comment and string tricks.
 */
const classicPayloads: readonly Payload[] = [
  classic("insert", "INSERT INTO canary VALUES (100, 'pwned')"),
  classic("update", "UPDATE canary SET v = 'pwned'"),
  classic("delete", "DELETE FROM canary"),
  classic("merge", "MERGE INTO canary c USING (SELECT 2 AS id) s ON c.id = s.id WHEN MATCHED THEN DELETE"),
  classic("create table", "CREATE TABLE evil (id int)"),
  classic("create table as", "CREATE TABLE evil AS SELECT * FROM canary"),
  classic("create temporary table", "CREATE TEMPORARY TABLE evil_temporary AS SELECT 1 AS one"),
  classic("create index", "CREATE INDEX evil_index ON canary (v)"),
  classic("create function", "CREATE FUNCTION evil() RETURNS int LANGUAGE sql AS 'SELECT 1'"),
  classic("drop table", "DROP TABLE canary"),
  classic("alter table", "ALTER TABLE canary ADD COLUMN evil int"),
  classic("truncate", "TRUNCATE canary"),
  classic("grant", "GRANT ALL ON canary TO PUBLIC"),
  classic("comment on", "COMMENT ON TABLE canary IS 'pwned'"),
  {
    name: "create role",
    group: "classic",
    sql: (context) => `CREATE ROLE ${context.evilRole} SUPERUSER LOGIN`,
  },
  classic("alter role set", "ALTER ROLE CURRENT_USER SET search_path = evil"),
  classic("delete in a CTE", "WITH d AS (DELETE FROM canary RETURNING *) SELECT * FROM d"),
  classic("update in a CTE", "WITH u AS (UPDATE canary SET v = 'pwned' RETURNING id) SELECT count(*) FROM u"),
  classic(
    "insert in a nested CTE",
    "SELECT * FROM (WITH i AS (INSERT INTO journal (marker) VALUES ('pwned') RETURNING id) SELECT id FROM i) AS t",
  ),
  classic("select then delete", "SELECT 1; DELETE FROM canary"),
  classic("three statements", "SELECT 1; UPDATE canary SET v = 'pwned'; SELECT 2"),
  classic("values then delete", "VALUES (1); DELETE FROM canary"),
  classic("table then truncate", "TABLE canary; TRUNCATE canary"),
  classic("set search_path", "SET search_path = evil"),
  classic("set statement_timeout", "SET statement_timeout = 0"),
  classic("reset all", "RESET ALL"),
  classic("set role", "SET ROLE postgres"),
  classic("set session authorization", "SET SESSION AUTHORIZATION postgres"),
  classic("set transaction read write", "SET TRANSACTION READ WRITE"),
  classic("set_config", "SELECT set_config('search_path', 'evil', false)"),
  { name: "copy to file", group: "classic", sql: (context) => `COPY canary TO '${context.filePath}'` },
  {
    name: "copy from program",
    group: "classic",
    sql: (context) => `COPY canary FROM PROGRAM 'touch ${context.filePath}'`,
  },
  {
    name: "copy query to program",
    group: "classic",
    sql: (context) => `COPY (SELECT 1) TO PROGRAM 'touch ${context.filePath}'`,
  },
  classic("explain analyze delete", "EXPLAIN ANALYZE DELETE FROM canary"),
  classic("explain analyze update as json", "EXPLAIN (ANALYZE, FORMAT JSON) UPDATE canary SET v = 'pwned'"),
  classic("select for update", "SELECT * FROM canary FOR UPDATE"),
  classic("select for share skip locked", "SELECT id FROM canary FOR SHARE SKIP LOCKED"),
  classic("select into", "SELECT * INTO evil_copy FROM canary"),
  classic("listen", "LISTEN nlq_evil"),
  classic("notify", "NOTIFY nlq_evil, 'pwned'"),
  classic("prepare", "PREPARE evil AS DELETE FROM canary"),
  classic("deallocate all", "DEALLOCATE ALL"),
  classic("declare cursor with hold", "DECLARE evil CURSOR WITH HOLD FOR SELECT * FROM canary"),
  classic("begin delete commit", "BEGIN; DELETE FROM canary; COMMIT"),
  classic("commit", "COMMIT"),
  classic("rollback", "ROLLBACK"),
  classic("savepoint", "SAVEPOINT evil"),
  classic("do block", "DO $$ BEGIN DELETE FROM canary; END $$"),
  classic("call procedure", "CALL wipe_canary()"),
  classic("vacuum", "VACUUM canary"),
  classic("lock table", "LOCK TABLE canary IN ACCESS EXCLUSIVE MODE"),
  classic("discard all", "DISCARD ALL"),
  classic("advisory lock", "SELECT pg_advisory_lock(4242)"),
];

/** Comment and string tricks: the classic payloads whose reading depends on the lexical settings. */
export const lexicalTrickPayloads: readonly Payload[] = [
  classic("line comment hides a newline", "SELECT 1 -- harmless\n; DELETE FROM canary"),
  classic("block comment around a delete", "SELECT 1 /* ; DELETE FROM canary */"),
  classic("quote doubling", "SELECT 'a'';DELETE FROM canary;--' AS a"),
  classic("dollar quote then delete", "SELECT $$;$$ AS a; DELETE FROM canary"),
  classic("psql backslash semicolon", "SELECT 1 \\; DELETE FROM canary"),
  classic("escape string", "SELECT E'\\'; DELETE FROM canary; --' AS a"),
  classic("backslash before a quote", "SELECT 'a\\' AS a; DELETE FROM canary; --' AS b"),
];

/** Every classic payload (issue 6: the ones that already stayed refused or harmless). */
export const allClassicPayloads: readonly Payload[] = [...classicPayloads, ...lexicalTrickPayloads];
