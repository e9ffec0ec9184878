// Peak RSS of an nlq proxy in this process while one client sends a 500 MB value's question (byte cap 16 MiB), a
// 300 MB ordinary Query, or a 300 MB question; BENCHMARKS.md records the figures. Needs the local PostgreSQL
// (NLQ_TEST_DATABASE_URL). Run from packages/proxy:
//   NODE_OPTIONS=--expose-gc npx tsx src/server/proxy-memory-bench.ts value|ordinary|question [relay|javascript]
import { singleCandidateSelection } from "@nlq/engine/testing";
import { serialize } from "pg-protocol";
import { type Message, RawClient, startTestProxy } from "./proxy.test-helpers";

const [mode = "value", relay = "relay"] = process.argv.slice(2);
const megabytes = (bytes: number) => Math.round(bytes / 1024 / 1024);
let peak = 0;
setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 10).unref();

const sql = "select repeat('x', 500000000) as big";
const proxy = await startTestProxy(
  async (options) => {
    const result = await options.session.query({ sql, resultByteLimit: 16 * 1024 * 1024 });
    return {
      question: options.question,
      sql,
      result,
      truncated: result.cutByBytes === true,
      selection: singleCandidateSelection,
      model: { id: "bench:fixed", scripted: false },
      candidates: [],
      calls: [],
      elapsedMilliseconds: 1,
    };
  },
  { nativeRelay: relay === "relay", closeGraceMilliseconds: 60_000 },
);
const query =
  mode === "value"
    ? serialize.query("/* nl: the big value? */")
    : serialize.query(`${mode === "ordinary" ? "select 1 as one --" : "-- nl:"} ${"x".repeat(300 * 1024 * 1024)}`);
const client = new RawClient(proxy.address.port);
await client.startup("nlq-memory-bench");
global.gc?.();
const before = process.memoryUsage.rss();
peak = before;
client.socket.write(query);
const readyTwice = (messages: readonly Message[]) => messages.filter((m) => m.name === "readyForQuery").length >= 2;
await client.waitFor(readyTwice, mode, 300_000);
console.log(
  `${mode} (${relay}): RSS ${megabytes(before)} MB before, peak ${megabytes(peak)} MB (+${megabytes(peak - before)} MB)`,
);
client.socket.destroy();
await proxy.close();
process.exit(0);
