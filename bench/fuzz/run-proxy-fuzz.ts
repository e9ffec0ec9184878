import { connect } from "node:net";
import { testServerUrl } from "@nlq/adapters/testing";
import { type Answer, type AnswerQuestionOptions, seededRandom } from "@nlq/engine";
import type { ProxySettings } from "@nlq/proxy";
import { type ProxyServer, silentLogger, startProxyServer } from "@nlq/proxy";
import { answerWith } from "@nlq/proxy/testing";
import pg from "pg";
import type { Random } from "./frontend-frames";
import { type FuzzStream, fuzzStream } from "./fuzz-stream";

export interface ProxyFuzzOptions {
  /** Frames to send in all (the run stops at the first stream that reaches it). */
  readonly frames: number;
  /** Seed of the stream generator; the same seed sends the same streams. */
  readonly seed: number;
  /** Clients fuzzing at once. Default 4. */
  readonly lanes?: number;
  /** Most frames per stream after its startup packet. Default 60. */
  readonly maximumFramesPerStream?: number;
  /** The PostgreSQL server behind the proxy. Default the local test server (`NLQ_TEST_DATABASE_URL`). */
  readonly serverUrl?: string;
  /** Stop early once crashes plus hangs reach this many (a broken proxy would take 10 s per stream). Default 5. */
  readonly stopAfterFailures?: number;
  /** Called about once a second with the figures so far. */
  readonly onProgress?: (report: ProxyFuzzReport) => void;
}

export interface ProxyFuzzReport {
  readonly seed: number;
  readonly frames: number;
  readonly streams: number;
  /** Uncaught exceptions and unhandled rejections while the proxy ran (the process would have died). */
  readonly crashes: number;
  /**
   * Streams after which a fresh client could not run `select 1` through the proxy within 10 s (a login the server
   * refuses as busy, SQLSTATE 53300 or 57P03, is tried again within that time), plus one if closing the proxy at the
   * end took more than 15 s.
   */
  readonly hangs: number;
  /** Backends of the fuzzing role still there 10 s after the last stream. */
  readonly leftoverBackends: number;
  readonly baselineRssBytes: number;
  readonly maximumRssBytes: number;
  readonly elapsedMilliseconds: number;
  /** The first few crash messages, to reproduce them. */
  readonly crashMessages: readonly string[];
  /** Why the watchdog's `select 1` failed, for the first few hangs (a timeout, or the error it got). */
  readonly hangMessages: readonly string[];
}

/**
 * Fuzzes a real proxy (port 0, in this process) in front of a real PostgreSQL with random and mutated
 * frontend streams (see `fuzzStream`), answering questions with a fake answerer that runs `select 1`
 * on the session, fails, or takes a moment. The streams log in as a throwaway role, so that backends
 * left behind can be counted; after each stream a fresh client must run `select 1` (the watchdog).
 */
export async function runProxyFuzz(options: ProxyFuzzOptions): Promise<ProxyFuzzReport> {
  const started = Date.now();
  const serverUrl = new URL(options.serverUrl ?? testServerUrl);
  const database = decodeURIComponent(serverUrl.pathname.slice(1) || "postgres");
  const role = `nlq_fuzz_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: serverUrl.toString() });
  await admin.connect();
  await admin.query(`create role ${role} login`);
  const crashMessages: string[] = [];
  const hangMessages: string[] = [];
  const onHang = (reason: string) => {
    hangs++;
    if (hangMessages.length < 10) hangMessages.push(reason);
  };
  let crashes = 0;
  const onCrash = (error: unknown) => {
    crashes++;
    if (crashMessages.length < 10)
      crashMessages.push(error instanceof Error ? (error.stack ?? error.message) : String(error));
  };
  process.on("uncaughtException", onCrash);
  process.on("unhandledRejection", onCrash);
  const baselineRssBytes = process.memoryUsage.rss();
  let maximumRssBytes = baselineRssBytes;
  const sampler = setInterval(() => {
    maximumRssBytes = Math.max(maximumRssBytes, process.memoryUsage.rss());
  }, 50);
  let frames = 0;
  let streams = 0;
  let hangs = 0;
  let leftoverBackends = 0;
  const report = (): ProxyFuzzReport => ({
    seed: options.seed,
    frames,
    streams,
    crashes,
    hangs,
    leftoverBackends,
    baselineRssBytes,
    maximumRssBytes,
    elapsedMilliseconds: Date.now() - started,
    crashMessages,
    hangMessages,
  });
  const progress =
    options.onProgress === undefined ? undefined : setInterval(() => options.onProgress?.(report()), 1_000);
  let proxy: ProxyServer | undefined;
  try {
    proxy = await startProxyServer({
      listenPort: 0,
      upstreamHost: serverUrl.hostname,
      upstreamPort: Number(serverUrl.port || 5432),
      answerQuestion: fakeAnswerer(seededRandom(options.seed + 1)),
      settings: {} as ProxySettings,
      logger: silentLogger,
      closeGraceMilliseconds: 200,
      clientQueueLimitBytes: 64 * 1024,
    });
    const port = proxy.address.port;
    const random = seededRandom(options.seed);
    const streamOptions = { user: role, database, maximumFrames: options.maximumFramesPerStream ?? 60 };
    const watchdog = {
      host: serverUrl.hostname,
      port,
      user: decodeURIComponent(serverUrl.username || "postgres"),
      database,
    };
    const lane = async () => {
      while (frames < options.frames && crashes + hangs < (options.stopAfterFailures ?? 5)) {
        const stream = fuzzStream(random, streamOptions);
        frames += stream.frames;
        streams++;
        await sendStream(port, stream);
        const failure = await selectOneWithin(watchdog, 10_000);
        if (failure !== undefined) onHang(`after stream ${streams}: ${failure}`);
      }
    };
    await Promise.all(Array.from({ length: options.lanes ?? 4 }, lane));
    leftoverBackends = await backendsLeft(admin, role, 10_000);
    // Closing the proxy must not hang either (a connection that never closes would hold it).
    const closing = proxy.close().then(() => true);
    proxy = undefined;
    if (!(await Promise.race([closing, delay(15_000).then(() => false)]))) onHang("closing the proxy took over 15 s");
    return report();
  } finally {
    clearInterval(sampler);
    if (progress !== undefined) clearInterval(progress);
    if (proxy !== undefined) await Promise.race([proxy.close(), delay(15_000)]);
    await admin.query("select pg_terminate_backend(pid) from pg_stat_activity where usename = $1", [role]);
    await backendsLeft(admin, role, 10_000);
    await admin.query(`drop role if exists ${role}`);
    await admin.end();
    process.off("uncaughtException", onCrash);
    process.off("unhandledRejection", onCrash);
  }
}

const delay = (milliseconds: number) => new Promise<void>((resolve) => setTimeout(resolve, milliseconds).unref());

/** Answers with `select 1` on the session, after a moment or at once; one question in ten fails. */
function fakeAnswerer(random: Random) {
  return async (options: AnswerQuestionOptions): Promise<Answer> => {
    const roll = random();
    if (roll < 0.3) await new Promise((resolve) => setTimeout(resolve, 1 + Math.floor(random() * 5)));
    if (roll > 0.9) throw new Error("the fake answerer failed");
    return answerWith(options, "select 1 as n");
  };
}

/** The header of a ReadyForQuery message: the upstream finished authenticating the client. */
const READY_FOR_QUERY_HEADER = Buffer.from([0x5a, 0, 0, 0, 5]);

/**
 * Sends one stream: its startup writes, then (unless it pipelines) waits for ReadyForQuery as clients do
 * (at most 1 s), then its session writes, each a turn of the event loop apart; then waits until the
 * proxy closes the connection or stays quiet for 20 ms (at most 2 s in all), and destroys the socket.
 */
function sendStream(port: number, stream: FuzzStream): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    let received = Buffer.alloc(0);
    let onReady: (() => void) | undefined;
    let quietTimer: NodeJS.Timeout | undefined;
    const finish = () => {
      clearTimeout(quietTimer);
      clearTimeout(capTimer);
      onReady?.();
      socket.destroy();
      resolve();
    };
    const capTimer = setTimeout(finish, 2_000);
    const waitForQuiet = () => {
      clearTimeout(quietTimer);
      quietTimer = setTimeout(finish, 20);
    };
    socket.on("error", () => {});
    socket.on("close", finish);
    socket.on("data", (chunk: Buffer) => {
      if (onReady !== undefined) {
        received = Buffer.concat([received.subarray(-4), chunk]);
        if (received.includes(READY_FOR_QUERY_HEADER)) onReady();
      }
      if (quietTimer !== undefined) waitForQuiet();
    });
    const write = async (writes: readonly Buffer[]) => {
      for (const bytes of writes) {
        if (socket.destroyed) return;
        socket.write(bytes);
        await new Promise((next) => setImmediate(next));
      }
    };
    socket.on("connect", async () => {
      const ready = new Promise<void>((resolveReady) => {
        const timer = setTimeout(() => resolveReady(), 1_000);
        onReady = () => {
          clearTimeout(timer);
          onReady = undefined;
          resolveReady();
        };
      });
      await write(stream.startupWrites);
      if (stream.waitForReady) await ready;
      await write(stream.sessionWrites);
      waitForQuiet();
    });
  });
}

/**
 * SQLSTATEs of a server that refuses a new connection for now (too many clients, starting up, shutting down): the
 * test server is shared with the rest of the suite, so the watchdog's own login may meet them without the proxy being
 * at fault, and tries again until its limit.
 */
const SERVER_BUSY = new Set(["53300", "57P03"]);

/**
 * Runs `select 1` through the proxy as a fresh client, within `limitMilliseconds` in all (logins the server refuses
 * as busy are retried); returns undefined when it answered, else why not.
 */
async function selectOneWithin(config: pg.ClientConfig, limitMilliseconds: number): Promise<string | undefined> {
  const deadline = Date.now() + limitMilliseconds;
  for (;;) {
    const remaining = Math.max(1, deadline - Date.now());
    const client = new pg.Client({ ...config, connectionTimeoutMillis: remaining, query_timeout: remaining });
    client.on("error", () => {});
    try {
      await client.connect();
      const result = await client.query("select 1 as one");
      return result.rows[0]?.one === 1 ? undefined : `select 1 returned ${JSON.stringify(result.rows)}`;
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      const reason = `${typeof code === "string" ? `${code} ` : ""}${error instanceof Error ? error.message : String(error)}`;
      if (!(typeof code === "string" && SERVER_BUSY.has(code)) || Date.now() + 100 >= deadline) return reason;
    } finally {
      await Promise.race([client.end().catch(() => {}), delay(remaining)]);
    }
    await delay(100);
  }
}

/** Polls until no backend of `role` is left (up to `limitMilliseconds`); returns how many are left. */
async function backendsLeft(admin: pg.Client, role: string, limitMilliseconds: number): Promise<number> {
  const deadline = Date.now() + limitMilliseconds;
  for (;;) {
    const result = await admin.query<{ count: string }>("select count(*) from pg_stat_activity where usename = $1", [
      role,
    ]);
    const count = Number(result.rows[0]!.count);
    if (count === 0 || Date.now() > deadline) return count;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
