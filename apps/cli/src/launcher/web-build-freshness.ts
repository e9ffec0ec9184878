import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

/** Folders whose files end up in the web app's build: the app itself and the packages it bundles. */
const sourceFolders = [
  "app",
  "components",
  "lib",
  "next.config.ts",
  "package.json",
  "../../packages/engine/src",
  "../../packages/adapters/src",
  "../../packages/prompts/src",
];
const skipped = new Set(["node_modules", ".next"]);

/**
 * Whether `next build` must run before `next start`: never built (`.next/BUILD_ID` missing), or any source of the
 * web app or of the packages it bundles changed after the last build (a `git pull` must not serve an old build).
 * Reads only modification times: a few hundred `stat` calls, milliseconds.
 */
export function webBuildIsStale(webDirectory: string): boolean {
  const buildId = path.join(webDirectory, ".next", "BUILD_ID");
  if (!existsSync(buildId)) return true;
  const builtAt = statSync(buildId).mtimeMs;
  return sourceFolders.some((folder) => modifiedAfter(path.resolve(webDirectory, folder), builtAt));
}

/** Whether the file, or the folder or anything under it, changed after `time`; stops at the first that did. */
function modifiedAfter(location: string, time: number): boolean {
  if (!existsSync(location)) return false;
  const status = statSync(location);
  if (status.mtimeMs > time) return true;
  if (!status.isDirectory()) return false;
  return readdirSync(location, { withFileTypes: true }).some(
    (entry) => !skipped.has(entry.name) && modifiedAfter(path.join(location, entry.name), time),
  );
}
