import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ConfigurationError } from "@nlq/engine";

/**
 * The drizzle migrations of the metadata store: `configured` (`ServiceSettings.migrationsDirectory`, from
 * `NLQ_MIGRATIONS_DIR`, for bundled deployments where the sources moved), else the repository's root `migrations/`
 * folder, found relative to this file (not the working directory).
 */
export function metadataMigrationsFolder(configured: string | undefined): string {
  // path.resolve rather than `new URL("…", import.meta.url)`: bundlers (Turbopack in apps/web) treat the latter as
  // an asset import and fail on a directory, while they keep import.meta.url pointing at this source file.
  const folder = configured ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../migrations");
  if (!existsSync(/* turbopackIgnore: true */ folder)) {
    throw new ConfigurationError(`metadata store migrations not found at ${folder} (set NLQ_MIGRATIONS_DIR)`);
  }
  return folder;
}
