import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const repository = path.resolve(import.meta.dirname, "../../../..");
const temporary = mkdtempSync(path.join(tmpdir(), "nlq-compiled-cli-"));
afterAll(() => rmSync(temporary, { recursive: true, force: true }));

function run(script: string, commandArguments: readonly string[]) {
  return spawnSync(process.execPath, [script, ...commandArguments], {
    encoding: "utf8",
    cwd: temporary,
    maxBuffer: 256 * 1024 * 1024,
  });
}

describe("the compiled nlq command (scripts/build-cli.mjs)", () => {
  it("builds the CLI into ES modules that run without tsx and find the files beside their sources", () => {
    // Inside the repository, so the bundle resolves its npm dependencies from node_modules as apps/cli/dist does.
    mkdirSync(path.join(repository, "node_modules/.cache"), { recursive: true });
    const output = mkdtempSync(path.join(repository, "node_modules/.cache/nlq-compiled-cli-"));
    afterAll(() => rmSync(output, { recursive: true, force: true }));
    const build = run(path.join(repository, "scripts/build-cli.mjs"), ["--out-dir", output]);
    expect(build.status, build.stderr).toBe(0);
    const main = path.join(output, "main.js");
    const manifest = JSON.parse(readFileSync(path.join(repository, "apps/cli/package.json"), "utf8"));

    // nlq-version.ts reads ../../package.json beside its source, not beside the bundle.
    const version = run(main, ["--version"]);
    expect(version.stderr).toBe("");
    expect(version.stdout.trim()).toBe(manifest.version);
    const help = run(main, ["--help"]);
    for (const command of ["start", "proxy", "ask", "mcp", "demo", "index", "eval", "selector-data", "bench"]) {
      expect(help.stdout).toMatch(new RegExp(`^  ${command}\\b`, "m"));
    }
    // A command's own module is a separate chunk, loaded when it runs (the demo generator here).
    const demo = run(main, ["demo", "sql"]);
    expect(demo.status, demo.stderr).toBe(0);
    expect(demo.stdout).toContain('CREATE TABLE "customers" (');

    // Only commander and node:fs are imported before a command is chosen: no engine, AI SDK or parser.
    const entry = readFileSync(main, "utf8");
    const imported = [...entry.matchAll(/^import .* from "([^".][^"]*)";$/gm)].map((match) => match[1]);
    expect(new Set(imported)).toEqual(new Set(["commander", "node:fs"]));
    const inputs = JSON.parse(readFileSync(path.join(output, "build-inputs.json"), "utf8")) as string[];
    expect(inputs).toContain("apps/cli/src/cli/main.ts");
    expect(inputs).toContain("packages/engine/src/index.ts");
  });
});

describe("bin/nlq.mjs", () => {
  // A stand-in checkout: the real launcher script, a "built" and a "sources" main that say which one ran.
  const checkout = path.join(temporary, "checkout");
  const bin = path.join(checkout, "apps/cli/bin/nlq.mjs");
  const source = path.join(checkout, "apps/cli/src/cli/main.ts");
  const built = path.join(checkout, "apps/cli/dist/main.js");
  mkdirSync(path.dirname(bin), { recursive: true });
  mkdirSync(path.dirname(source), { recursive: true });
  writeFileSync(bin, readFileSync(path.join(repository, "apps/cli/bin/nlq.mjs")));
  writeFileSync(source, 'const from: string = "sources";\nconsole.log(from, process.argv.slice(2).join(" "));\n');
  symlinkSync(path.join(repository, "node_modules"), path.join(checkout, "node_modules"));
  writeFileSync(path.join(checkout, "package.json"), '{ "type": "module" }\n');
  const build = () => {
    mkdirSync(path.dirname(built), { recursive: true });
    writeFileSync(built, 'console.log("built", process.argv.slice(2).join(" "));\n');
    writeFileSync(path.join(path.dirname(built), "build-inputs.json"), '["apps/cli/src/cli/main.ts"]\n');
    utimesSync(source, 1_000, 1_000);
  };

  it("runs the build output when it is newer than every source it was built from", () => {
    build();
    const result = run(bin, ["--version"]);
    expect(result.stdout).toBe("built --version\n");
    expect(result.stderr).toBe("");
  });

  it("falls back to the TypeScript sources through tsx, saying why, when a source is newer", () => {
    build();
    utimesSync(source, new Date(), new Date(Date.now() + 60_000));
    const result = run(bin, ["ask", "x"]);
    expect(result.stdout).toBe("sources ask x\n");
    expect(result.stderr).toBe(
      "nlq: running the TypeScript sources through tsx: apps/cli/src/cli/main.ts changed since the last build (run npm run build)\n",
    );
  });

  it("falls back to the sources when there is no build output", () => {
    rmSync(path.dirname(built), { recursive: true, force: true });
    const result = run(bin, ["--help"]);
    expect(result.stdout).toBe("sources --help\n");
    expect(result.stderr).toContain("apps/cli/dist is missing (run npm run build)");
  });
});
