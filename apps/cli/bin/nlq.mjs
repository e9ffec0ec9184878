#!/usr/bin/env node
// The `nlq` command. Runs the compiled JavaScript in apps/cli/dist/ (built by `npm run build`, which `npm ci` runs
// through the root `prepare` script). When that output is missing, or older than one of the sources it was built
// from (a developer's edit), it says so on stderr and runs the TypeScript sources through tsx instead.
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const cliDirectory = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const built = path.join(cliDirectory, "dist", "main.js");
const buildInputs = path.join(cliDirectory, "dist", "build-inputs.json");

/** Why the build output cannot be used (missing, or a source newer than it), or undefined when it can. */
function staleReason() {
  let builtAt;
  let inputs;
  try {
    builtAt = statSync(built).mtimeMs;
    inputs = JSON.parse(readFileSync(buildInputs, "utf8"));
  } catch {
    return "apps/cli/dist is missing (run npm run build)";
  }
  const repository = path.resolve(cliDirectory, "../..");
  for (const input of inputs) {
    let modified;
    try {
      modified = statSync(path.join(repository, input)).mtimeMs;
    } catch {
      return `${input} was removed since the last build (run npm run build)`;
    }
    if (modified > builtAt) return `${input} changed since the last build (run npm run build)`;
  }
  return undefined;
}

const reason = staleReason();
if (reason === undefined) {
  process.setSourceMapsEnabled(true);
  await import(built);
} else {
  process.stderr.write(`nlq: running the TypeScript sources through tsx: ${reason}\n`);
  const { register } = await import("tsx/esm/api");
  register();
  await import("../src/cli/main.ts");
}
