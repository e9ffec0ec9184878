import { alwaysQuoteIdentifier } from "../sql/quote-identifier";
import type { QueryResult } from "./query-executor";

/**
 * What a session keeps across a rollback, read on the session itself: session advisory locks, prepared statements,
 * temporary relations and (when the dblink extension is installed) named dblink connections. A read-only scope
 * reads it on entry and after leaving; anything new was left by the scope (`newResidue`) and is reset, every kind
 * (`resetResidue`). PostgreSQL refuses CREATE in a read-only transaction and rolls back whatever a scope created, so a
 * new temporary relation is not expected; it is still read, dropped and refused like the rest, whatever made it.
 */
export interface SessionResidue {
  /** Advisory locks of this backend: `classid:objid:objsubid:mode` (objsubid 1 = one bigint key, 2 = two int keys). */
  readonly advisoryLocks: readonly string[];
  readonly preparedStatements: readonly string[];
  /** Relations in the session's temporary schema, every relkind (tables, views, sequences, indexes…), by OID. */
  readonly temporaryRelations: readonly string[];
  /** Named dblink connections (`dblink_get_connections()`); empty without dblink. */
  readonly dblinkConnections: readonly string[];
}

/**
 * Select-list items reading the residue (without dblink connections) and the schema of the dblink extension (when
 * the role may call its `dblink_get_connections()`):
 * appended to the scope's first statement, so reading it on entry costs no round trip. Catalog views only; nothing
 * here depends on the session's search_path (every operator and function is schema-qualified).
 */
export const residueColumnsSql = [
  `(SELECT pg_catalog.array_to_json(pg_catalog.array_agg(pg_catalog.concat_ws(':', l.classid, l.objid, l.objsubid, l.mode)))
     FROM pg_catalog.pg_locks l WHERE l.locktype OPERATOR(pg_catalog.=) 'advisory' AND l.pid OPERATOR(pg_catalog.=) pg_catalog.pg_backend_pid())::text`,
  "(SELECT pg_catalog.array_to_json(pg_catalog.array_agg(s.name)) FROM pg_catalog.pg_prepared_statements s)::text",
  `(SELECT pg_catalog.array_to_json(pg_catalog.array_agg(c.oid)) FROM pg_catalog.pg_class c
     WHERE c.relnamespace OPERATOR(pg_catalog.=) pg_catalog.pg_my_temp_schema())::text`,
  `(SELECT n.nspname FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace
     WHERE e.extname OPERATOR(pg_catalog.=) 'dblink'
       AND CASE WHEN e.extname OPERATOR(pg_catalog.=) 'dblink' THEN pg_catalog.has_function_privilege(
         pg_catalog.to_regprocedure(pg_catalog.format('%I.dblink_get_connections()', n.nspname))::pg_catalog.oid, 'EXECUTE')
       END)`,
];

/**
 * A string literal read the same under any `standard_conforming_strings` (the asking role controls that setting, and
 * a dblink name is chosen by whatever ran in the scope): quotes doubled, and a text holding a backslash becomes an
 * `E'…'` literal with its backslashes doubled.
 */
function literal(text: string): string {
  const doubled = text.replaceAll("'", "''");
  return text.includes("\\") ? `E'${doubled.replaceAll("\\", "\\\\")}'` : `'${doubled}'`;
}

/** The statement reading the dblink connections, for a session whose dblink lives in `schema`. */
export function dblinkConnectionsSql(schema: string): string {
  return `SELECT pg_catalog.array_to_json(${alwaysQuoteIdentifier(schema)}.dblink_get_connections())::text`;
}

/** The whole residue in one statement (after the scope); `dblinkSchema` null when dblink is not installed. */
export function residueSql(dblinkSchema: string | null): string {
  const dblink =
    dblinkSchema === null
      ? "NULL::text"
      : `pg_catalog.array_to_json(${alwaysQuoteIdentifier(dblinkSchema)}.dblink_get_connections())::text`;
  return `SELECT ${residueColumnsSql.slice(0, 3).join(", ")}, ${dblink}`;
}

function list(cell: string | null | undefined): string[] {
  if (cell === null || cell === undefined || cell === "") return [];
  const parsed: unknown = JSON.parse(cell);
  return Array.isArray(parsed) ? parsed.map(String) : [];
}

/** The residue from four cells: advisory locks, prepared statements, temporary relations, dblink connections. */
export function parseResidue(cells: ReadonlyArray<string | null>): SessionResidue {
  return {
    advisoryLocks: list(cells[0]),
    preparedStatements: list(cells[1]),
    temporaryRelations: list(cells[2]),
    dblinkConnections: list(cells[3]),
  };
}

/** What `after` holds that `before` did not. Pure. */
export function newResidue(before: SessionResidue, after: SessionResidue): SessionResidue {
  const added = (left: readonly string[], right: readonly string[]) => right.filter((item) => !left.includes(item));
  return {
    advisoryLocks: added(before.advisoryLocks, after.advisoryLocks),
    preparedStatements: added(before.preparedStatements, after.preparedStatements),
    temporaryRelations: added(before.temporaryRelations, after.temporaryRelations),
    dblinkConnections: added(before.dblinkConnections, after.dblinkConnections),
  };
}

/** One line per item, for errors and logs; empty when there is nothing. Pure. */
export function describeResidue(residue: SessionResidue): string[] {
  return [
    ...residue.advisoryLocks.map((lock) => `advisory lock ${advisoryLockKey(lock)?.text ?? lock}`),
    ...residue.dblinkConnections.map((name) => `dblink connection ${name}`),
    ...residue.preparedStatements.map((name) => `prepared statement ${name}`),
    ...residue.temporaryRelations.map((oid) => `temporary relation ${oid}`),
  ];
}

/** The unlock call arguments of a `classid:objid:objsubid:mode` lock, or undefined when it is no advisory key. */
function advisoryLockKey(lock: string): { text: string; arguments: string; shared: boolean } | undefined {
  const [classid, objid, objsubid, mode] = lock.split(":");
  if (classid === undefined || objid === undefined || !/^\d+$/.test(classid) || !/^\d+$/.test(objid)) return undefined;
  const shared = mode === "ShareLock";
  const signed = (value: string) => BigInt.asIntN(32, BigInt(value)).toString();
  if (objsubid === "2")
    return {
      text: `(${signed(classid)}, ${signed(objid)})`,
      arguments: `${signed(classid)}, ${signed(objid)}`,
      shared,
    };
  const key = BigInt.asIntN(64, (BigInt(classid) << 32n) | BigInt(objid)).toString();
  return { text: key, arguments: `${key}::bigint`, shared };
}

/**
 * The statements that undo the non-transactional part of `residue` (each one statement): every new advisory lock
 * released as often as it is held (a recursive query that stops at the first `false`), each new dblink connection
 * disconnected, each new prepared statement deallocated. Temporary relations are dropped by `resetResidue`, which
 * reads their kind and name first. Pure.
 */
export function resetStatements(residue: SessionResidue, dblinkSchema: string | null): string[] {
  const statements: string[] = [];
  for (const lock of residue.advisoryLocks) {
    const key = advisoryLockKey(lock);
    if (key === undefined) continue;
    const unlock = `pg_catalog.pg_advisory_unlock${key.shared ? "_shared" : ""}(${key.arguments})`;
    statements.push(
      `WITH RECURSIVE released(held, times) AS (SELECT ${unlock}, 1 UNION ALL SELECT ${unlock}, times OPERATOR(pg_catalog.+) 1 FROM released WHERE held AND times OPERATOR(pg_catalog.<) 100000) SELECT pg_catalog.count(*) FROM released`,
    );
  }
  if (dblinkSchema !== null) {
    for (const name of residue.dblinkConnections) {
      statements.push(`SELECT ${alwaysQuoteIdentifier(dblinkSchema)}.dblink_disconnect(${literal(name)})`);
    }
  }
  for (const name of residue.preparedStatements) statements.push(`DEALLOCATE ${alwaysQuoteIdentifier(name)}`);
  return statements;
}

/** The `DROP` each relkind takes (a TOAST table has none: it goes with its table). */
const dropKeywords: Readonly<Record<string, string>> = {
  r: "TABLE",
  p: "TABLE",
  f: "FOREIGN TABLE",
  v: "VIEW",
  m: "MATERIALIZED VIEW",
  S: "SEQUENCE",
  i: "INDEX",
  I: "INDEX",
  c: "TYPE",
};

/**
 * The relations among `oids` still in the session's own temporary schema, newest first, with the statement dropping
 * each (`RESTRICT`: nothing else is ever dropped with it). A relation of another schema never matches, so a reused
 * OID cannot point the reset anywhere else.
 */
async function remainingTemporaryRelations(
  control: (sql: string) => Promise<QueryResult>,
  oids: readonly string[],
): Promise<Array<{ oid: string; drop: string | undefined }>> {
  const result = await control(
    `SELECT c.oid, c.relkind, c.relname FROM pg_catalog.pg_class c
      WHERE c.relnamespace OPERATOR(pg_catalog.=) pg_catalog.pg_my_temp_schema()
        AND c.oid OPERATOR(pg_catalog.=) ANY ('{${oids.join(",")}}'::pg_catalog.oid[])
      ORDER BY c.oid DESC`,
  );
  return result.rows.map(([oid, relkind, name]) => {
    const keyword = dropKeywords[relkind ?? ""];
    return {
      oid: oid ?? "",
      drop: keyword === undefined ? undefined : `DROP ${keyword} pg_temp.${alwaysQuoteIdentifier(name ?? "")} RESTRICT`,
    };
  });
}

/** Runs one statement inside its own savepoint; returns whether it succeeded (a failure is rolled back). */
async function runGuarded(control: (sql: string) => Promise<QueryResult>, sql: string): Promise<boolean> {
  await control("SAVEPOINT nlq_reset_one");
  let succeeded = true;
  try {
    await control(sql);
  } catch {
    succeeded = false;
    await control("ROLLBACK TO SAVEPOINT nlq_reset_one");
  }
  await control("RELEASE SAVEPOINT nlq_reset_one");
  return succeeded;
}

/**
 * Drops the new temporary relations (tables, partitioned tables, views, sequences, indexes, composite types: every
 * relkind of `pg_class` in the session's temporary schema) that are still there. A drop is transactional, unlike the
 * other resets, so it is kept: idle, in its own transaction that commits; in the user's transaction, in a savepoint that
 * is released (it commits or rolls back with the user's transaction, as whatever created the relation there would).
 * Relations depending on each other are dropped over several passes, newest first, while a pass drops something.
 * Returns whether none is left (a relation the session's role does not own, e.g. one a SECURITY DEFINER function
 * created in `pg_temp`, stays and is reported). A statement failing outside `runGuarded` (a cancel) rolls the drops
 * back, leaving the user's transaction as it was, and is rethrown.
 */
async function dropTemporaryRelations(
  control: (sql: string) => Promise<QueryResult>,
  temporaryRelations: readonly string[],
  idle: boolean,
): Promise<boolean> {
  const oids = temporaryRelations.filter((oid) => /^\d+$/.test(oid));
  if (oids.length === 0) return temporaryRelations.length === 0;
  await control(idle ? "BEGIN" : "SAVEPOINT nlq_reset_drop");
  let remaining: Array<{ oid: string; drop: string | undefined }>;
  try {
    remaining = await remainingTemporaryRelations(control, oids);
    for (let dropped = true; dropped && remaining.length > 0; ) {
      dropped = false;
      for (const relation of remaining) {
        if (relation.drop !== undefined && (await runGuarded(control, relation.drop))) dropped = true;
      }
      remaining = await remainingTemporaryRelations(control, oids);
    }
  } catch (error) {
    // A failed statement aborted the transaction or savepoint: only a rollback leaves it (a RELEASE would fail too and
    // leave the user's transaction aborted). The drops go with it; the error says why.
    await control(idle ? "ROLLBACK" : "ROLLBACK TO SAVEPOINT nlq_reset_drop");
    if (!idle) await control("RELEASE SAVEPOINT nlq_reset_drop");
    throw error;
  }
  await control(idle ? "COMMIT" : "RELEASE SAVEPOINT nlq_reset_drop");
  return remaining.length === 0 && oids.length === temporaryRelations.length;
}

/**
 * Resets `residue` on the session, every kind alike. The non-transactional resets (`resetStatements`) run inside their
 * own transaction (idle) or savepoint (in a transaction) with `client_min_messages = error` set locally (the last
 * unlock of a lock says "you don't own a lock" as a WARNING), which is then rolled back: the resets stay, the setting
 * and any failure go. New temporary relations are then dropped (`dropTemporaryRelations`). Returns whether every item
 * was reset; an item no statement can reset (an advisory lock that is no key, a dblink connection without dblink's
 * schema) makes it false.
 */
export async function resetResidue(
  control: (sql: string) => Promise<QueryResult>,
  residue: SessionResidue,
  dblinkSchema: string | null,
  idle: boolean,
): Promise<boolean> {
  const statements = resetStatements(residue, dblinkSchema);
  const unreachable =
    residue.advisoryLocks.some((lock) => advisoryLockKey(lock) === undefined) ||
    (dblinkSchema === null && residue.dblinkConnections.length > 0);
  let complete = !unreachable;
  if (statements.length > 0) {
    await control(idle ? "BEGIN" : "SAVEPOINT nlq_reset");
    try {
      await control("SET LOCAL client_min_messages = error");
      for (const sql of statements) {
        if (!(await runGuarded(control, sql))) complete = false;
      }
    } finally {
      if (idle) await control("ROLLBACK");
      else {
        await control("ROLLBACK TO SAVEPOINT nlq_reset");
        await control("RELEASE SAVEPOINT nlq_reset");
      }
    }
  }
  const dropped = await dropTemporaryRelations(control, residue.temporaryRelations, idle);
  return complete && dropped;
}

/** The first row of a result as cells (for reading the residue). */
export function firstRow(result: QueryResult): ReadonlyArray<string | null> {
  return result.rows[0] ?? [];
}
