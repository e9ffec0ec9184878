/**
 * The engine's own time per question (issue 18, item 7): a `fast` question on the demo through `nlq proxy`, with a
 * model that answers instantly (a scripted replay: no network, no thinking), against `select 1` through the same
 * proxy. What is left is nlq's overhead: catalog (index or introspection), function policy, retrieval (keywords, value
 * lookup), validation, execution, selection and the wire.
 *
 *   npm run bench:question-overhead [-- --questions 200] [-- --url postgresql://postgres@127.0.0.1:5432/postgres] [-- --json]
 *
 * Sets up (once, kept between runs) the demo data in `nlq_overhead_demo` and a metadata store in `nlq_overhead_metadata`
 * on the given server, indexes the demo with `nlq index` (as `nlq start` does), starts `nlq proxy` twice (plain, then
 * with `--progress` for the phase breakdown: the arrival time of each progress NOTICE at the client) and interleaves
 * `select 1` and questions on one connection. Then times the per-question database steps before generation directly
 * (`measure-components.ts`), to say which parts dominate.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { openMetadataStore } from "@nlq/adapters";
import { loadDemoData } from "@nlq/demo";
import pg from "pg";
import { measureComponents } from "./measure-components";
import { overheadPercentiles, percentile, phaseBreakdown, type TimedNotice } from "./overhead-report";

const { values: options } = parseArgs({
  options: {
    questions: { type: "string", default: "200" },
    warmup: { type: "string", default: "20" },
    url: { type: "string", default: "postgresql://postgres@127.0.0.1:5432/postgres" },
    json: { type: "boolean", default: false },
  },
});
const runs = Number(options.questions);
const warmup = Number(options.warmup);
if (!Number.isInteger(runs) || runs < 1)
  throw new Error(`--questions must be a whole number ≥ 1, got ${options.questions}`);

const repository = fileURLToPath(new URL("../..", import.meta.url));
const cli = ["--import", "tsx", path.join(repository, "apps/cli/src/cli/main.ts")];
const server = new URL(options.url);
const urlOf = (database: string) => {
  const url = new URL(server);
  url.pathname = `/${database}`;
  return url.toString();
};
const demoUrl = urlOf("nlq_overhead_demo");
const metadataUrl = urlOf("nlq_overhead_metadata");

/** Questions whose SQL the scripted model answers at once; each runs on the demo. */
const questions: ReadonlyArray<{ question: string; keywords: string[]; sql: string }> = [
  { question: "How many orders are there?", keywords: ["orders"], sql: "SELECT count(*) FROM orders" },
  { question: "How many customers are there?", keywords: ["customers"], sql: "SELECT count(*) FROM customers" },
  { question: "How many products are there?", keywords: ["products"], sql: "SELECT count(*) FROM products" },
  { question: "How many stores are there?", keywords: ["stores"], sql: "SELECT count(*) FROM stores" },
  { question: "How many employees are there?", keywords: ["employees"], sql: "SELECT count(*) FROM employees" },
];

async function ensureDatabase(name: string): Promise<boolean> {
  const admin = new pg.Client({ connectionString: options.url });
  await admin.connect();
  try {
    const exists = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (exists.rowCount) return false;
    await admin.query(`CREATE DATABASE ${name}`);
    return true;
  } finally {
    await admin.end();
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

async function startProxy(
  environment: NodeJS.ProcessEnv,
  progress: boolean,
): Promise<{ port: number; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      ...cli,
      "proxy",
      "--upstream",
      `postgresql://${server.host}`,
      "--listen",
      `127.0.0.1:${port}`,
      ...(progress ? ["--progress"] : []),
    ],
    { env: environment, stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const deadline = Date.now() + 60_000;
  for (;;) {
    const client = new pg.Client({
      connectionString: `postgresql://${server.username || "postgres"}@127.0.0.1:${port}/nlq_overhead_demo`,
    });
    try {
      await client.connect();
      await client.end();
      return { port, child };
    } catch {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`nlq proxy did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

async function measure(port: number): Promise<{ select1: number[]; question: number[]; notices: TimedNotice[][] }> {
  const client = new pg.Client({
    connectionString: `postgresql://${server.username || "postgres"}@127.0.0.1:${port}/nlq_overhead_demo`,
  });
  await client.connect();
  let started = 0;
  let current: TimedNotice[] = [];
  client.on("notice", (notice) =>
    current.push({ message: notice.message ?? "", milliseconds: performance.now() - started }),
  );
  const select1: number[] = [];
  const question: number[] = [];
  const notices: TimedNotice[][] = [];
  try {
    for (let run = 0; run < warmup + runs; run++) {
      const asked = questions[run % questions.length]!;
      started = performance.now();
      await client.query("select 1");
      const selectMilliseconds = performance.now() - started;
      current = [];
      started = performance.now();
      const result = await client.query(`/* nl: ${asked.question} */;`);
      const questionMilliseconds = performance.now() - started;
      if (result.rows.length !== 1)
        throw new Error(`unexpected answer to "${asked.question}": ${JSON.stringify(result.rows)}`);
      if (run < warmup) continue;
      select1.push(selectMilliseconds);
      question.push(questionMilliseconds);
      notices.push(current);
    }
  } finally {
    await client.end();
  }
  return { select1, question, notices };
}

const scratch = mkdtempSync(path.join(tmpdir(), "nlq-question-overhead-"));
const children: ChildProcess[] = [];
try {
  if (await ensureDatabase("nlq_overhead_demo")) await loadDemoData({ url: demoUrl });
  await ensureDatabase("nlq_overhead_metadata");
  const fixture = path.join(scratch, "instant-model.json");
  writeFileSync(
    fixture,
    JSON.stringify({
      description: "Instant answers for the question-overhead benchmark. Scripted: no language model produced these.",
      responses: questions.flatMap((item) => [
        { step: "extract-keywords", question: item.question, output: { keywords: item.keywords } },
        { step: "generate-candidate", question: item.question, output: { reasoning: "count", sql: item.sql } },
      ]),
    }),
  );
  const environment: NodeJS.ProcessEnv = {
    ...process.env,
    NLQ_HOME: scratch,
    NLQ_METADATA_URL: metadataUrl,
    NLQ_MODEL: `scripted:${fixture}`,
    NLQ_PRESET: "fast",
  };
  const indexed = spawnSync(process.execPath, [...cli, "index", "--url", demoUrl], {
    env: environment,
    encoding: "utf8",
  });
  if (indexed.status !== 0) throw new Error(`nlq index failed:\n${indexed.stderr}`);

  const plain = await startProxy(environment, false);
  children.push(plain.child);
  const headline = await measure(plain.port);
  plain.child.kill("SIGTERM");
  const withProgress = await startProxy(environment, true);
  children.push(withProgress.child);
  const detailed = await measure(withProgress.port);
  withProgress.child.kill("SIGTERM");
  const store = await openMetadataStore({ url: metadataUrl });
  const components = await measureComponents({ url: demoUrl, store, runs: Math.min(runs, 50) }).finally(() =>
    store.close(),
  );

  const report = {
    questions: runs,
    preset: "fast",
    model: "scripted (instant)",
    ...overheadPercentiles(headline.select1, headline.question),
    phases: phaseBreakdown(detailed.notices),
    components,
    withProgressNotices: overheadPercentiles(detailed.select1, detailed.question),
    /** The NOTICEs of the last question, with their times: what each phase line is. */
    lastQuestionNotices: detailed.notices.at(-1) ?? [],
    /** Median time from the last NOTICE of a question (its answer's) to the end of its response (ReadyForQuery). */
    afterLastNoticeP50: percentile(
      detailed.question.map((total, index) => total - (detailed.notices[index]?.at(-1)?.milliseconds ?? total)),
      0.5,
    ),
  };
  if (options.json) console.log(JSON.stringify(report, null, 2));
  else {
    const format = (value: number) => `${value.toFixed(1)} ms`;
    console.log(
      `${runs} fast questions on the demo through nlq proxy (scripted instant model), interleaved with select 1`,
    );
    console.log(`select 1:  p50 ${format(report.select1.p50)}, p95 ${format(report.select1.p95)}`);
    console.log(`question:  p50 ${format(report.question.p50)}, p95 ${format(report.question.p95)}`);
    console.log(`overhead (question p50 − select 1 p50): ${format(report.overheadP50)}`);
    console.log("phases (median time from sending the question to each progress NOTICE, --progress run):");
    for (const phase of report.phases) console.log(`  ${phase.notice.padEnd(48)} ${format(phase.p50)}`);
    console.log(`  end of the response (ReadyForQuery), after the last NOTICE  +${format(report.afterLastNoticeP50)}`);
    console.log("parts before generation, called directly on the demo (median):");
    for (const component of report.components) console.log(`  ${component.part.padEnd(88)} ${format(component.p50)}`);
  }
} finally {
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  rmSync(scratch, { recursive: true, force: true });
}
