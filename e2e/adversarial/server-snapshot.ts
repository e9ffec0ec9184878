import type pg from "pg";

/**
 * What a superuser observer sees of the whole database: data checksums, a fingerprint of the schema, privileges,
 * policies, comments, functions, extensions, large objects, role settings, statistics reset time, this run's
 * replication slots and evil role. Read on a separate superuser connection to the case's database.
 */
function databaseStateSql(suffix: string): string {
  const digest = (expression: string, from: string) => `(SELECT md5(coalesce(string_agg(${expression}), '')) ${from})`;
  return `SELECT json_build_object(
    'canary', ${digest("format('%s|%s', id, v), ',' ORDER BY id", "FROM canary")},
    'journal', ${digest("format('%s|%s', id, marker), ',' ORDER BY id", "FROM journal")},
    'notes', ${digest("format('%s|%s', id, body), ',' ORDER BY id", "FROM notes")},
    'relations', ${digest(
      "format('%s|%s|%s|%s', relname, relkind, relacl, relrowsecurity), ',' ORDER BY relname",
      "FROM pg_class WHERE relnamespace = 'public'::regnamespace",
    )},
    'columns', ${digest(
      "format('%s.%s:%s', attrelid::regclass, attname, atttypid), ',' ORDER BY attrelid, attnum",
      "FROM pg_attribute WHERE attrelid IN (SELECT oid FROM pg_class WHERE relnamespace = 'public'::regnamespace) AND attnum > 0 AND NOT attisdropped",
    )},
    'functions', ${digest(
      "format('%s|%s|%s', oid::regprocedure, provolatile, prosrc), ',' ORDER BY oid",
      "FROM pg_proc WHERE pronamespace = 'public'::regnamespace",
    )},
    'schemas', ${digest(
      "format('%s|%s', nspname, nspacl), ',' ORDER BY nspname",
      "FROM pg_namespace WHERE nspname NOT LIKE 'pg_temp%' AND nspname NOT LIKE 'pg_toast_temp%'",
    )},
    'policies', ${digest("format('%s|%s|%s', polname, polroles, polqual), ',' ORDER BY polname", "FROM pg_policy")},
    'comments', ${digest("format('%s|%s|%s', objoid, objsubid, description), ',' ORDER BY objoid, objsubid", "FROM pg_description WHERE objoid >= 16384")},
    'extensions', (SELECT string_agg(extname, ',' ORDER BY extname) FROM pg_extension),
    'large objects', (SELECT count(*) FROM pg_largeobject_metadata),
    'role settings', ${digest(
      "format('%s|%s|%s', setdatabase, setrole, setconfig), ',' ORDER BY setdatabase, setrole",
      `FROM pg_db_role_setting WHERE setdatabase = (SELECT oid FROM pg_database WHERE datname = current_database())
         OR setrole IN (SELECT oid FROM pg_roles WHERE rolname LIKE '%${suffix}%')`,
    )},
    'database privileges', (SELECT datacl::text FROM pg_database WHERE datname = current_database()),
    'statistics reset', (SELECT stats_reset::text FROM pg_stat_database WHERE datname = current_database()),
    'replication slots', (SELECT string_agg(slot_name, ',') FROM pg_replication_slots WHERE slot_name LIKE '%${suffix}%'),
    'evil role', (SELECT string_agg(rolname, ',') FROM pg_roles WHERE rolname = 'nlq_adv_evil_${suffix}')
  ) AS state`;
}

/** What the observer sees of one backend: its locks (advisory included) and its activity. */
const backendStateSql = `SELECT json_build_object(
  'locks', (SELECT json_agg(format('%s|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s', locktype, database, relation, page, tuple, virtualxid, transactionid,
                   classid, objid, objsubid, mode, granted) ORDER BY locktype, relation, classid, objid, objsubid, mode)
            FROM pg_locks WHERE pid = $1),
  'activity', (SELECT json_build_array(state, backend_xid::text, usename, datname) FROM pg_stat_activity WHERE pid = $1)
) AS state`;

export interface ServerSnapshot {
  readonly database: Record<string, unknown>;
  readonly client: Record<string, unknown>;
  /** Backends connected to the case's database. */
  readonly backends: readonly number[];
}

export async function readServerSnapshot(
  observer: pg.Client,
  suffix: string,
  clientPid: number,
): Promise<ServerSnapshot> {
  const database = await observer.query<{ state: Record<string, unknown> }>(databaseStateSql(suffix));
  const client = await observer.query<{ state: Record<string, unknown> }>(backendStateSql, [clientPid]);
  const backends = await observer.query<{ pid: number }>(
    "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() ORDER BY pid",
  );
  return {
    database: database.rows[0]?.state ?? {},
    client: client.rows[0]?.state ?? {},
    backends: backends.rows.map((row) => row.pid),
  };
}
