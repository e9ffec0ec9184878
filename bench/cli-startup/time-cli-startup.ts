/**
 * Start-up time of the `nlq` command, built (apps/cli/dist, what `nlq` runs after `npm ci`) against the TypeScript
 * sources through tsx (what `nlq` falls back to when the build is missing or stale):
 *
 *   npm run bench:cli-startup [-- --runs 11] [-- --baseline-commit <sha>] [-- --json]
 *
 * Each target runs `nlq --help` and `nlq --version` `--runs` times, the targets interleaved so load on the machine
 * hits them alike; medians of the wall-clock time from spawn to exit. `--baseline-commit` adds a third target: that
 * commit's `apps/cli/src/cli/main.ts` through tsx (e.g. the one before lazy command loading), written beside the
 * sources for the run and removed afterwards.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const { values: options } = parseArgs({
  options: {
    runs: { type: "string", default: "11" },
    "baseline-commit": { type: "string" },
    json: { type: "boolean", default: false },
  },
});

const repository = fileURLToPath(new URL("../..", import.meta.url));
const runs = Number(options.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a whole number ≥ 1, got ${options.runs}`);
const built = path.join(repository, "apps/cli/dist/main.js");
if (!existsSync(built)) throw new Error("apps/cli/dist/main.js is missing: run npm run build first");

interface Target {
  readonly name: string;
  readonly command: readonly string[];
}
const targets: Target[] = [
  // What users run: the launcher checks the build is fresh, then imports it.
  { name: "built", command: [path.join(repository, "apps/cli/bin/nlq.mjs")] },
  { name: "tsx", command: ["--import", "tsx", path.join(repository, "apps/cli/src/cli/main.ts")] },
];
let baselineFile: string | undefined;
if (options["baseline-commit"] !== undefined) {
  const source = execFileSync("git", ["show", `${options["baseline-commit"]}:apps/cli/src/cli/main.ts`], {
    cwd: repository,
    encoding: "utf8",
  });
  baselineFile = path.join(repository, "apps/cli/src/cli/main-baseline.bench.ts");
  writeFileSync(baselineFile, source);
  targets.push({ name: `tsx @ ${options["baseline-commit"].slice(0, 7)}`, command: ["--import", "tsx", baselineFile] });
}

function timeOnce(target: Target, flag: string): number {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, [...target.command, flag], { cwd: repository, encoding: "utf8" });
  const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`${target.name} ${flag} exited ${result.status}: ${result.stderr}`);
  // The launcher says so when it falls back to tsx: then "built" would not be measuring the build.
  if (target.name === "built" && result.stderr !== "") throw new Error(`stale build? ${result.stderr.trim()}`);
  return elapsed;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const flags = ["--help", "--version"];
const samples = new Map<string, number[]>();
try {
  for (let run = 0; run < runs; run += 1) {
    for (const flag of flags) {
      for (const target of targets) {
        const key = `${target.name} ${flag}`;
        samples.set(key, [...(samples.get(key) ?? []), timeOnce(target, flag)]);
      }
    }
  }
} finally {
  if (baselineFile !== undefined) rmSync(baselineFile, { force: true });
}

const rows = flags.flatMap((flag) =>
  targets.map((target) => {
    const milliseconds = median(samples.get(`${target.name} ${flag}`)!);
    const builtMilliseconds = median(samples.get(`built ${flag}`)!);
    return {
      flag,
      target: target.name,
      medianMilliseconds: Math.round(milliseconds),
      ratioToBuilt: milliseconds / builtMilliseconds,
    };
  }),
);
if (options.json) {
  console.log(JSON.stringify({ runs, rows }, null, 2));
} else {
  console.log(`nlq start-up, median of ${runs} runs (wall clock, spawn to exit)\n`);
  console.log("| command | target | median ms | × built |");
  console.log("| --- | --- | ---: | ---: |");
  for (const row of rows) {
    console.log(`| nlq ${row.flag} | ${row.target} | ${row.medianMilliseconds} | ×${row.ratioToBuilt.toFixed(1)} |`);
  }
}
