import { existsSync, readdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { alwaysQuoteIdentifier } from "@nlq/engine";
import type pg from "pg";

/** Where the defog data lives relative to the repository (`../shared/data/defog`). */
export const defaultDefogDirectory = path.resolve(import.meta.dirname, "../../../../../../shared/data/defog");

/**
 * Loads every defog database (`databases/<db>/<db>.sql`) into the connected database, one schema per database named
 * after it: each file runs into a fresh `public` schema, which is then renamed to `<db>` (files that create their own
 * schema, like ewallet's `consumer_div`, keep it). Meant for a throwaway database; returns the names loaded. `only`
 * loads just those databases (default: all).
 */
export async function loadDefogDatabases(
  client: pg.Client,
  defogDirectory = defaultDefogDirectory,
  only?: readonly string[],
): Promise<string[]> {
  const databases = path.join(defogDirectory, "databases");
  if (!existsSync(databases)) throw new Error(`no defog databases at ${databases}`);
  const names = readdirSync(databases)
    .filter((name) => existsSync(path.join(databases, name, `${name}.sql`)))
    .filter((name) => only === undefined || only.includes(name))
    .sort();
  for (const name of names) {
    const sql = await readFile(path.join(databases, name, `${name}.sql`), "utf8");
    await client.query(`DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public; SET search_path TO public`);
    await client.query(sql);
    await client.query(
      `ALTER SCHEMA public RENAME TO ${alwaysQuoteIdentifier(name)}; CREATE SCHEMA public; RESET search_path`,
    );
  }
  return names;
}
