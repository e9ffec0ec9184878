/**
 * Summarises a V8 CPU profile (`node --cpu-prof` writes one `.cpuprofile` per process at exit): the functions with the
 * most self time and the most total (inclusive) time, in % of all samples, idle included.
 *
 *   npx tsx bench/proxy/summarise-cpu-profile.ts <file.cpuprofile> [--top 25]
 *
 * To profile the proxy's pass-through path (BENCHMARKS.md, "Proxy pass-through overhead"):
 *   node --cpu-prof --cpu-prof-dir=/tmp/nlq-profile apps/cli/bin/nlq.mjs proxy \
 *     --upstream postgresql://127.0.0.1:5432 --listen 127.0.0.1:6433 &
 *   pgbench -h 127.0.0.1 -p 6433 -U postgres -S -M prepared -c 8 -j 8 -T 8 -n <database>; kill -TERM %1
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: readonly number[];
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
}

export interface ProfileSummary {
  readonly samples: number;
  /** Share of samples in `(idle)` (the event loop waiting), in %. */
  readonly idlePercent: number;
  readonly self: ReadonlyArray<{ readonly name: string; readonly percent: number }>;
  readonly total: ReadonlyArray<{ readonly name: string; readonly percent: number }>;
}

/** The function's name and where it is (path shortened to the package or app), e.g. `push apps/cli/dist/x.js:783`. */
function functionKey(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url.replace(/^.*\/(apps|packages|node_modules)\//, "$1/");
  return `${functionName || "(anonymous)"} ${file}:${lineNumber + 1}`;
}

/** Self and total time per function; a function counted once per sample however often it recurs on the stack. */
export function summariseCpuProfile(profile: CpuProfile, top: number): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const hits = new Map<number, number>();
  for (const id of profile.samples) hits.set(id, (hits.get(id) ?? 0) + 1);
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  let idle = 0;
  for (const [id, count] of hits) {
    const node = byId.get(id)!;
    if (node.callFrame.functionName === "(idle)") idle += count;
    self.set(functionKey(node), (self.get(functionKey(node)) ?? 0) + count);
    const seen = new Set<string>();
    for (let current: number | undefined = id; current !== undefined; current = parentOf.get(current)) {
      const key = functionKey(byId.get(current)!);
      if (seen.has(key)) continue;
      seen.add(key);
      total.set(key, (total.get(key) ?? 0) + count);
    }
  }
  const samples = profile.samples.length;
  const ranked = (counts: Map<string, number>) =>
    [...counts]
      .sort((left, right) => right[1] - left[1])
      .slice(0, top)
      .map(([name, count]) => ({ name, percent: (100 * count) / samples }));
  return { samples, idlePercent: (100 * idle) / samples, self: ranked(self), total: ranked(total) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { top: { type: "string", default: "25" } },
  });
  if (positionals.length !== 1) throw new Error("usage: summarise-cpu-profile.ts <file.cpuprofile> [--top 25]");
  const summary = summariseCpuProfile(JSON.parse(readFileSync(positionals[0]!, "utf8")), Number(values.top));
  const line = ({ name, percent }: { name: string; percent: number }) => `${percent.toFixed(1).padStart(5)}%  ${name}`;
  process.stdout.write(
    [
      `${summary.samples} samples, idle ${summary.idlePercent.toFixed(1)}%`,
      "self time:",
      ...summary.self.map(line),
      "total time (inclusive):",
      ...summary.total.map(line),
      "",
    ].join("\n"),
  );
}
