import path from "node:path";

/**
 * Where nlq keeps its local state: `$NLQ_HOME/.nlq` (NLQ_HOME defaults to the current directory).
 * The embedded PostgreSQL (demo database and metadata store, one database each) lives in `<state>/postgres`.
 */
export function nlqStateDirectory(environment: NodeJS.ProcessEnv = process.env): string {
  const home = environment.NLQ_HOME && environment.NLQ_HOME.length > 0 ? environment.NLQ_HOME : process.cwd();
  return path.resolve(home, ".nlq");
}
