import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { stepNames, stepVariableNames } from "../../packages/engine/src/steps/step-registry";

/**
 * An `NLQ_*` variable name: `NLQ_` and upper-case words, not a prefix written before a placeholder (`NLQ_MODEL_<STEP>`,
 * `NLQ_TLS_*`) nor part of a longer identifier.
 */
const variableName = /(?<![A-Za-z0-9_])NLQ_[A-Z0-9_]*[A-Z0-9](?![A-Za-z0-9_])/g;

/** A test file's read of a variable: `process.env.NLQ_X`, `env.NLQ_X`, `process.env["NLQ_X"]`. */
const environmentRead = /\benv(?:\.|\[\s*["'])(NLQ_[A-Z0-9_]*[A-Z0-9])\b/g;

/** Folders that hold no source of nlq's own. */
const skippedDirectories = new Set([
  "node_modules",
  ".git",
  ".next",
  ".nlq",
  "dist",
  "build",
  "test-results",
  "playwright-report",
  "docs",
  "fixtures",
  "migrations",
]);

/** Source files: code, shell, compose and package files (documentation is what is checked, not a source). */
function isSourceFile(name: string): boolean {
  return /\.(ts|tsx|mts|mjs|cjs|js|sh|ya?ml)$/.test(name) || ["package.json", "Dockerfile", "run"].includes(name);
}

/** Tests and their helpers: they name variables to try them (`NLQ_SOMETHING` as an unknown one), not to read them. */
function isTestFile(name: string): boolean {
  return /\.(test|spec)\.tsx?$|\.test-helpers\.ts$|\.test-process\.ts$/.test(name);
}

function sourceFiles(root: string, directory = ""): string[] {
  return readdirSync(path.join(root, directory), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(directory, entry.name);
    if (entry.isDirectory()) return skippedDirectories.has(entry.name) ? [] : sourceFiles(root, relative);
    return isSourceFile(entry.name) && !entry.name.endsWith(".d.ts") ? [relative] : [];
  });
}

/** Every `NLQ_*` name in a text. */
export function variablesNamedIn(text: string): Set<string> {
  return new Set(text.match(variableName) ?? []);
}

/** The `NLQ_*` variables a test file reads from the environment (not the ones it only names). */
export function variablesReadByTest(text: string): Set<string> {
  return new Set([...text.matchAll(environmentRead)].map((match) => match[1] as string));
}

/**
 * Every `NLQ_*` variable the code reads, found from the source: each name in a source file that is not a test (the
 * settings schemas' keys, direct `process.env` reads, npm scripts, docker-compose, the CI script, shell scripts), each
 * variable a test reads from the environment, and each step's `NLQ_MODEL_<STEP>` names, which the step registry
 * builds rather than spells (`stepVariableNames`). Maps each variable to one file that names it.
 */
export function variablesReadByCode(root: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of sourceFiles(root)) {
    const text = readFileSync(path.join(root, file), "utf8");
    const names = isTestFile(path.basename(file)) ? variablesReadByTest(text) : variablesNamedIn(text);
    for (const name of names) if (!found.has(name)) found.set(name, file);
  }
  for (const step of stepNames) {
    for (const name of stepVariableNames(step)) {
      if (!found.has(name)) found.set(name, "packages/engine/src/steps/step-registry.ts");
    }
  }
  return found;
}
