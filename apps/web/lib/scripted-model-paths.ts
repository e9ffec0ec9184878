import { existsSync } from "node:fs";
import path from "node:path";
import { findUpwards } from "./suggested-questions";

/**
 * `next start` runs in `apps/web`, while `NLQ_MODEL=scripted:fixtures/demo-model.json` is usually written
 * relative to the repository root. This returns the environment with each relative `scripted:` path of
 * `NLQ_MODEL` and `NLQ_MODEL_<STEP>` made absolute: as given when it exists from `directory`, otherwise
 * the first match in a parent directory. Other variables are unchanged.
 */
export function resolveScriptedModelPaths(
  environment: Record<string, string | undefined>,
  directory = process.cwd(),
): Record<string, string | undefined> {
  const resolved: Record<string, string | undefined> = { ...environment };
  for (const [name, value] of Object.entries(environment)) {
    if (name !== "NLQ_MODEL" && !name.startsWith("NLQ_MODEL_")) continue;
    const match = value?.trim().match(/^scripted:(.+)$/);
    const file = match?.[1];
    if (file === undefined || path.isAbsolute(file)) continue;
    const direct = path.resolve(directory, file);
    const found = existsSync(/* turbopackIgnore: true */ direct) ? direct : findUpwards(directory, file);
    if (found !== undefined) resolved[name] = `scripted:${found}`;
  }
  return resolved;
}
