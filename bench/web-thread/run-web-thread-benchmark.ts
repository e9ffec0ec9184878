/// <reference lib="dom" />
/**
 * The workspace through a long conversation (issue 28): typing and submit-to-rows at turns 1, 10, 20 and 50 of one
 * thread, against the server's time, in Debian's chromium. A benchmark, not a test: it prints medians, asserts nothing.
 *
 *   npm run bench:web-thread [-- --turns 1,10,20,50] [-- --rounds 3] [-- --keys 24] [-- --skip-build] [-- --json]
 *     [-- --metrics] [-- --web-port 3190]
 *
 * Runs the full `nlq start` with the scripted demo model (`e2e/web/serve-launcher.ts`, on its own ports: see
 * --web-port), signs in as `postgres`, and for each round and each turn N seeds a new thread with N − 1 answered
 * questions through the app's own `/api/chat` (the server records them as the thread's turns), opens it
 * (`/?thread=…`), types the next question key by key and submits it with Enter.
 * - key work: from the key event (its timestamp) to the moment its `input` event has run every handler — React's
 *   render and commit included (a discrete event's update is flushed before the event's later listeners run) — and a
 *   forced style and layout pass is done: what one key costs the page's main thread, paint aside;
 * - key to paint: from the key event to the next paint after it (a task queued from the next animation frame), which
 *   also waits for the next frame (16.7 ms apart at 60 Hz) and so sits near one frame even on an empty page;
 * - submit-to-rows: from the Enter to the next paint with the new answer's rows on the page;
 * - server: the `/api/chat` request as the browser's resource timing saw it (request start to the end of the streamed
 *   response); page overhead = submit-to-rows − server.
 * One unmeasured question warms the server up first. --metrics adds, per submit, the browser's script, style
 * recalculation and layout time (Chrome's Performance.getMetrics) to say where the page overhead goes.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { chromium, type Page } from "@playwright/test";
import { summariseTurns, type TurnSample, turnTable } from "./thread-timings";

const { values: options } = parseArgs({
  options: {
    turns: { type: "string", default: "1,10,20,50" },
    rounds: { type: "string", default: "3" },
    keys: { type: "string", default: "24" },
    "web-port": { type: "string", default: "3190" },
    "skip-build": { type: "boolean", default: false },
    /** Also print where the browser's time went during each submit (Chrome's script, style and layout totals). */
    metrics: { type: "boolean", default: false },
    json: { type: "boolean", default: false },
  },
});
const turns = options.turns.split(",").map(Number);
const rounds = Number(options.rounds);
const keyCount = Number(options.keys);
if (turns.some((turn) => !Number.isInteger(turn) || turn < 1)) throw new Error(`--turns: whole numbers ≥ 1`);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`--rounds must be a whole number ≥ 1`);

const repository = fileURLToPath(new URL("../..", import.meta.url));
const webPort = Number(options["web-port"]);
const baseUrl = `http://127.0.0.1:${webPort}`;
/** The e2e launcher's known superuser password (`e2e/web/e2e-database.ts`). */
const superuserPassword = "nlqE2eSuperuserPassword";

/** Recorded demo questions that answer with rows (tables, bars and a line chart), asked in turn. */
const questions = [
  "how many customers are there?",
  "what are the top 5 products by revenue this year?",
  "show the monthly revenue trend over the last 12 months",
  "what is the average order value by store?",
  "which customers are from Berlin?",
  "which carriers deliver late most often?",
  "who are our top 10 customers by lifetime spend?",
  "which product categories have the most returns?",
  "how much revenue did each country bring in this year?",
  "how much was refunded by payment method?",
];

function startServer(): ChildProcess {
  return spawn("npx", ["tsx", "e2e/web/serve-launcher.ts"], {
    cwd: repository,
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
    env: {
      ...process.env,
      NLQ_E2E_WEB_PORT: String(webPort),
      NLQ_E2E_PROXY_PORT: String(webPort + 3000),
      NLQ_E2E_EMBEDDED_PORT: String(webPort + 22000),
      ...(options["skip-build"] ? { NLQ_E2E_SKIP_BUILD: "1" } : {}),
    },
  });
}

async function waitForServer(): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt += 1) {
    const response = await fetch(`${baseUrl}/`).catch(() => undefined);
    if (response?.ok) return;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  throw new Error(`the web app did not answer on ${baseUrl}`);
}

/** Asks `count` questions in the browser's session through `/api/chat`; the thread id (new when none is given). */
async function seedThread(page: Page, count: number, first: number): Promise<string | undefined> {
  return page.evaluate(
    async ({ count, first, questions }) => {
      let threadId: string | undefined;
      for (let position = 0; position < count; position += 1) {
        const text = questions[(first + position) % questions.length]!;
        const response = await fetch("/api/chat", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            id: `seed-${position}`,
            messages: [{ id: `seed-${position}`, role: "user", parts: [{ type: "text", text }] }],
            ...(threadId ? { threadId } : {}),
          }),
        });
        const body = await response.text();
        const thread = body.match(/"type":"data-thread","id":"thread","data":\{"id":"([0-9a-f-]{36})"/);
        if (!response.ok || !thread || !body.includes('"type":"data-answer"'))
          throw new Error(`seeding failed at question ${position + 1}: ${response.status} ${body.slice(0, 300)}`);
        threadId = thread[1];
      }
      return threadId;
    },
    { count, first, questions },
  );
}

/** Installs the page-side clocks: per key its work and event-to-next-paint, Enter-to-rows, and the chat request's timing. */
async function installClocks(page: Page): Promise<void> {
  await page.evaluate(() => {
    const clocks = { keys: [] as number[], keyWork: [] as number[], submitted: 0, rows: 0, chat: 0 };
    (window as unknown as { nlqClocks: typeof clocks }).nlqClocks = clocks;
    const afterNextPaint = (callback: () => void) => requestAnimationFrame(() => setTimeout(callback, 0));
    const box = document.getElementById("question")!;
    let keyStarted: number | undefined;
    // The window's bubbling listener runs after React's (on the document) and after the microtask that renders and
    // commits the input's update: the time then, with a forced layout, is the key's work.
    window.addEventListener("input", (event) => {
      if (event.target !== box || keyStarted === undefined) return;
      document.body.getBoundingClientRect();
      clocks.keyWork.push(performance.now() - keyStarted);
      keyStarted = undefined;
    });
    box.addEventListener(
      "keydown",
      (event) => {
        const started = event.timeStamp;
        keyStarted = started;
        if (event.key === "Enter") {
          clocks.submitted = started;
          const before = document.querySelectorAll('[data-testid="row-count"]').length;
          const observer = new MutationObserver(() => {
            if (document.querySelectorAll('[data-testid="row-count"]').length <= before) return;
            observer.disconnect();
            afterNextPaint(() => {
              clocks.rows = performance.now();
            });
          });
          observer.observe(document.body, { childList: true, subtree: true });
          return;
        }
        afterNextPaint(() => clocks.keys.push(performance.now() - started));
      },
      { capture: true },
    );
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        if (entry.name.endsWith("/api/chat")) {
          const timing = entry as PerformanceResourceTiming;
          clocks.chat = timing.responseEnd - timing.startTime;
        }
      }
    }).observe({ type: "resource", buffered: false });
  });
}

async function measureTurn(page: Page, turn: number, round: number): Promise<TurnSample> {
  const first = round * 3;
  const threadId = await seedThread(page, turn - 1, first);
  await page.goto(threadId ? `/?thread=${threadId}` : "/");
  // The reopened thread is on the page: every earlier answer with its rows.
  await page.waitForFunction(
    (count) =>
      document.querySelectorAll('article[aria-label="Answer"]').length === count &&
      document.querySelectorAll('[data-testid="row-count"]').length === count,
    turn - 1,
    { timeout: 120_000 },
  );
  await installClocks(page);
  const box = page.getByLabel("Your question");
  await box.focus();
  const question = questions[(first + turn - 1) % questions.length]!;
  const typed = question.slice(0, keyCount);
  for (const [position, character] of [...typed].entries()) {
    await page.keyboard.press(character === " " ? "Space" : character);
    await page.waitForFunction(
      (count) => (window as unknown as { nlqClocks: { keys: number[] } }).nlqClocks.keys.length >= count,
      position + 1,
    );
  }
  await box.fill(question);
  const metrics = options.metrics ? await page.context().newCDPSession(page) : undefined;
  await metrics?.send("Performance.enable");
  const before = await metrics?.send("Performance.getMetrics");
  await page.keyboard.press("Enter");
  await page.waitForFunction(
    () => {
      const clocks = (window as unknown as { nlqClocks: { rows: number; chat: number } }).nlqClocks;
      return clocks.rows > 0 && clocks.chat > 0;
    },
    undefined,
    { timeout: 120_000 },
  );
  if (metrics && before) {
    const after = await metrics.send("Performance.getMetrics");
    const spent = (name: string) => {
      const value = (list: typeof after.metrics) => list.find((metric) => metric.name === name)?.value ?? 0;
      return `${((value(after.metrics) - value(before.metrics)) * 1_000).toFixed(0)} ms`;
    };
    console.error(
      `turn ${turn} submit: task ${spent("TaskDuration")}, script ${spent("ScriptDuration")}, style ${spent("RecalcStyleDuration")}, layout ${spent("LayoutDuration")}`,
    );
    await metrics.detach();
  }
  const clocks = await page.evaluate(
    () =>
      (
        window as unknown as {
          nlqClocks: { keys: number[]; keyWork: number[]; submitted: number; rows: number; chat: number };
        }
      ).nlqClocks,
  );
  return {
    turn,
    keyMilliseconds: clocks.keys,
    keyWorkMilliseconds: clocks.keyWork,
    submitToRowsMilliseconds: clocks.rows - clocks.submitted,
    serverMilliseconds: clocks.chat,
  };
}

const server = startServer();
const stopServer = () => {
  if (server.pid) process.kill(-server.pid, "SIGTERM");
};
process.on("SIGINT", () => {
  stopServer();
  process.exit(130);
});
try {
  await waitForServer();
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
  });
  const page = await browser.newPage({ baseURL: baseUrl, viewport: { width: 1280, height: 900 } });
  // tsx names functions with an `__name` helper that the page does not have: the functions evaluated there need it.
  await page.addInitScript("globalThis.__name = (target) => target;");
  await page.goto("/");
  await page.getByLabel("PostgreSQL user").fill("postgres");
  await page.getByLabel("Password").fill(superuserPassword);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByTestId("signed-in-role").waitFor();
  // One question first, not measured: the server's first answer loads the catalog and the model's fixture.
  await seedThread(page, 1, 0);
  const samples: TurnSample[] = [];
  for (let round = 0; round < rounds; round += 1) {
    for (const turn of turns) {
      const sample = await measureTurn(page, turn, round);
      samples.push(sample);
      if (!options.json)
        console.error(
          `round ${round + 1} turn ${turn}: submit-to-rows ${sample.submitToRowsMilliseconds.toFixed(1)} ms, server ${sample.serverMilliseconds.toFixed(1)} ms`,
        );
    }
  }
  await browser.close();
  const summaries = summariseTurns(samples);
  console.log(options.json ? JSON.stringify({ samples, summaries }, null, 2) : turnTable(summaries));
} finally {
  stopServer();
}
