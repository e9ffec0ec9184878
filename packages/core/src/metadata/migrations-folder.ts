import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ConfigurationError } from "../errors";

/**
 * The drizzle migrations of the metadata store: the repository's root `migrations/` folder, found
 * relative to this file (not the working directory). `NLQ_MIGRATIONS_DIR` overrides it for bundled
 * deployments where the sources moved.
 */
export function metadataMigrationsFolder(environment: NodeJS.ProcessEnv = process.env): string {
  const folder = environment.NLQ_MIGRATIONS_DIR || fileURLToPath(new URL("../../../../migrations", import.meta.url));
  if (!existsSync(folder)) {
    throw new ConfigurationError(`metadata store migrations not found at ${folder} (set NLQ_MIGRATIONS_DIR)`);
  }
  return folder;
}
