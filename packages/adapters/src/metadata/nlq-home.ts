import path from "node:path";

/**
 * Where nlq keeps its local state: `<home>/.nlq`, `home` being `ServiceSettings.home` (`NLQ_HOME`); default: the
 * current directory. The embedded PostgreSQL (demo database and metadata store, one database each) lives in
 * `<state>/postgres`.
 */
export function nlqStateDirectory(home: string | undefined): string {
  return path.resolve(home ?? process.cwd(), ".nlq");
}
