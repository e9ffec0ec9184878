import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DEMO_CUSTOMERS,
  DEMO_QUESTION,
  DEMO_SQL,
  type ScriptedDemoProxy,
  startScriptedDemoProxy,
} from "../scripted-demo-proxy";
import { runProgram } from "./run-program";

/** Real psql (`-X`: no ~/.psqlrc), non-interactive and interactive under tmux (`.ci/run` installs tmux). */
describe("psql through the proxy (scripted demo model)", () => {
  let demo: ScriptedDemoProxy;

  beforeAll(async () => {
    demo = await startScriptedDemoProxy("nlq_compat_psql");
  });
  afterAll(() => demo?.close());

  it("answers ordinary SQL and a question given with -c, the SQL in a NOTICE", async () => {
    demo.resetModelCalls();
    const run = await runProgram("psql", [
      "-X",
      "-At",
      "-v",
      "ON_ERROR_STOP=1",
      "-c",
      "select 'plain' as kind",
      "-c",
      `/* nl: ${DEMO_QUESTION} */`,
      demo.url,
    ]);
    expect(run.exitCode).toBe(0);
    expect(run.stdout.trim().split("\n")).toEqual(["plain", String(DEMO_CUSTOMERS)]);
    expect(run.stderr).toContain(`NOTICE:  nlq: ${DEMO_SQL}`);
    expect(run.stderr).toContain("scripted replay");
    expect(demo.modelCalls()).toBe(1);
  });

  it("answers a question in place in a multi-statement -c string (split by PostgreSQL's lexer)", async () => {
    demo.resetModelCalls();
    const run = await runProgram("psql", [
      "-X",
      "-At",
      "-c",
      `select 'before;' as kind; /* nl: ${DEMO_QUESTION} */; select $$after;$$ as kind`,
      demo.url,
    ]);
    expect(run.exitCode).toBe(0);
    expect(run.stdout.trim().split("\n")).toEqual(["before;", String(DEMO_CUSTOMERS), "after;"]);
    expect(run.stderr).toContain(`NOTICE:  nlq: ${DEMO_SQL}`);
    expect(demo.modelCalls()).toBe(1);
  });

  it("answers a question typed at the interactive prompt between ordinary statements (tmux)", async () => {
    const tmux = new Tmux(`nlq-psql-${randomBytes(4).toString("hex")}`);
    try {
      await tmux.start(["psql", "-X", "-P", "pager=off", demo.url]);
      await tmux.waitFor(/=#$/m);
      await tmux.type("select 'before' as kind;");
      await tmux.waitFor(/before\n\(1 row\)/);
      await tmux.type(`/* nl: ${DEMO_QUESTION} */;`);
      const screen = await tmux.waitFor(/customers\s*\n-+\n\s*3\n\(1 row\)/);
      expect(screen).toContain(`NOTICE:  nlq: ${DEMO_SQL}`);
      await tmux.type("select 'after' as kind;");
      await tmux.waitFor(/after\n\(1 row\)/);
      await tmux.type("\\q");
    } finally {
      await tmux.stop();
    }
  }, 60_000);
});

/** One tmux server on its own socket (`-L`), so nothing else running tmux is touched. */
class Tmux {
  readonly #socket: string;

  constructor(socket: string) {
    this.#socket = socket;
  }

  async start(command: readonly string[]): Promise<void> {
    const run = await this.#tmux(["new-session", "-d", "-s", "psql", "-x", "160", "-y", "60", ...command]);
    if (run.exitCode !== 0) throw new Error(`tmux new-session failed: ${run.stderr}`);
  }

  /** Types `text` literally, then Enter (a final `;` as a hex key: tmux reads a trailing `;` as its own separator). */
  async type(text: string): Promise<void> {
    const body = text.endsWith(";") ? text.slice(0, -1) : text;
    await this.#tmux(["send-keys", "-t", "psql", "-l", body]);
    if (body !== text) await this.#tmux(["send-keys", "-t", "psql", "-H", "3b"]);
    await this.#tmux(["send-keys", "-t", "psql", "Enter"]);
  }

  /** The screen (with scroll-back) once it matches `pattern`; throws after 20 s with what it showed. */
  async waitFor(pattern: RegExp): Promise<string> {
    const deadline = Date.now() + 20_000;
    let screen = "";
    while (Date.now() < deadline) {
      screen = (await this.#tmux(["capture-pane", "-p", "-t", "psql", "-S", "-200"])).stdout.replace(/[ \t]+\n/g, "\n");
      if (pattern.test(screen)) return screen;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`the psql screen never matched ${pattern}:\n${screen}`);
  }

  async stop(): Promise<void> {
    await this.#tmux(["kill-server"]);
  }

  #tmux(args: readonly string[]) {
    return runProgram("tmux", ["-L", this.#socket, ...args]);
  }
}
