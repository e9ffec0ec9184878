import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Every workspace declares the workspaces it imports (`dependencies`, or `devDependencies` when only its tests do), so
 * nothing resolves by npm's hoisting alone and `npm ls` shows the real package chain.
 */
const root = path.resolve(import.meta.dirname, "..");
const workspaces: string[] = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).workspaces;
const skippedDirectories = new Set(["node_modules", "dist", ".next", "test-results", "playwright-report"]);
const sourceFile = /\.(ts|tsx|mts|mjs|cjs|js)$/;
const workspaceImport = /(?:from\s+|import\s*\(\s*|require\(\s*)["'](@nlq\/[a-z-]+)/g;

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const entryPath = path.join(directory, entry.name);
    if (entry.isDirectory()) return skippedDirectories.has(entry.name) ? [] : sourceFiles(entryPath);
    return sourceFile.test(entry.name) && !entry.name.endsWith(".d.ts") ? [entryPath] : [];
  });
}

/** The `@nlq/*` packages a workspace's own files import, with one file that imports each. */
function importedWorkspaces(workspace: string): Map<string, string> {
  const imported = new Map<string, string>();
  for (const file of sourceFiles(path.join(root, workspace))) {
    for (const match of readFileSync(file, "utf8").matchAll(workspaceImport)) {
      const name = match[1] as string;
      if (!imported.has(name)) imported.set(name, path.relative(root, file));
    }
  }
  return imported;
}

describe("workspace dependencies", () => {
  it.each(workspaces)("%s declares every workspace it imports", (workspace) => {
    const manifest = JSON.parse(readFileSync(path.join(root, workspace, "package.json"), "utf8"));
    const declared = new Set([
      manifest.name,
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.devDependencies ?? {}),
    ]);
    const undeclared = [...importedWorkspaces(workspace)]
      .filter(([name]) => !declared.has(name))
      .map(([name, file]) => `${name} (imported by ${file})`);
    expect(undeclared).toEqual([]);
  });

  it("finds imports in the form this repository writes them", () => {
    const text = `import { a } from "@nlq/engine";\nconst b = await import("@nlq/adapters/testing");`;
    expect([...text.matchAll(workspaceImport)].map((match) => match[1])).toEqual(["@nlq/engine", "@nlq/adapters"]);
  });
});
