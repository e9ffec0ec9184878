/**
 * The long fuzz run of the proxy (the short one is run-proxy-fuzz.test.ts):
 *   npx tsx bench/fuzz/proxy-fuzz-main.ts --frames 1000000 [--seed N] [--lanes 4]
 * against the local PostgreSQL (`NLQ_TEST_DATABASE_URL`). Prints the seed first, progress every 10 s,
 * and the figures at the end; exits 1 when anything crashed, hung or was left behind.
 */
import { parseArgs } from "node:util";
import { type ProxyFuzzReport, runProxyFuzz } from "./run-proxy-fuzz";

const { values } = parseArgs({
  options: {
    frames: { type: "string", default: "1000000" },
    seed: { type: "string", default: String(Date.now() % 1_000_000_007) },
    lanes: { type: "string", default: "4" },
  },
});
const frames = Number(values.frames);
const seed = Number(values.seed);
const lanes = Number(values.lanes);
const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const describe = (report: ProxyFuzzReport) =>
  `frames ${report.frames}, streams ${report.streams}, crashes ${report.crashes}, hangs ${report.hangs}, ` +
  `RSS ${megabytes(report.baselineRssBytes)} → max ${megabytes(report.maximumRssBytes)}, ` +
  `elapsed ${(report.elapsedMilliseconds / 1000).toFixed(1)} s`;

console.log(`proxy fuzz: seed ${seed}, ${frames} frames, ${lanes} lanes`);
let lastProgress = 0;
const report = await runProxyFuzz({
  frames,
  seed,
  lanes,
  onProgress: (progress) => {
    if (progress.elapsedMilliseconds - lastProgress < 10_000) return;
    lastProgress = progress.elapsedMilliseconds;
    console.log(`  ${describe(progress)}`);
  },
});
console.log(`proxy fuzz done: seed ${seed}, ${describe(report)}, backends left ${report.leftoverBackends}`);
for (const message of report.crashMessages) console.log(`crash: ${message}`);
for (const message of report.hangMessages) console.log(`hang: ${message}`);
process.exitCode = report.crashes + report.hangs + report.leftoverBackends > 0 ? 1 : 0;
