import path from "node:path";
import { describe, expect, it } from "vitest";
import { commandNamed, invocationsIn, nlqCommandFlags, npmScriptFiles, scriptFlags } from "./command-line-flags";
import { headingAnchors, headingSlug, quotedCommands, relativeLinks } from "./markdown-documents";
import { variablesNamedIn, variablesReadByTest } from "./variables-read-by-code";

// The pieces docs-are-true.test.ts is made of, on documents written to be wrong: each check must see the mistake.
const root = path.resolve(import.meta.dirname, "../..");

describe("heading anchors", () => {
  it("are GitHub's: lower case, punctuation and inline code marks dropped, spaces as hyphens", () => {
    expect(headingSlug("Audit trail: `nlq log`")).toBe("audit-trail-nlq-log");
    expect(headingSlug("Presets: how hard nlq works on a question")).toBe("presets-how-hard-nlq-works-on-a-question");
    expect(headingSlug("Native relay, run 1 (2026-11-26)")).toBe("native-relay-run-1-2026-11-26");
    expect(headingSlug("Spider train_queries.csv as nlq eval input")).toBe("spider-train_queriescsv-as-nlq-eval-input");
    expect(headingSlug("**Bold** and [a link](x.md)")).toBe("bold-and-a-link");
  });

  it("number repeated headings and ignore lines in code blocks", () => {
    const anchors = headingAnchors("# Title\n## Run\n## Run\n```sh\n# not a heading\n```\n");
    expect([...anchors]).toEqual(["title", "run", "run-1"]);
  });
});

describe("relative links", () => {
  it("are found outside code, without URLs", () => {
    const text = [
      "See [the proxy](proxy.md#tls) and [a site](https://example.com).",
      "Not `[code](nowhere.md)`.",
      "```md",
      "[in a block](block.md)",
      "```",
      '[with a title](cli.md "The CLI")',
    ].join("\n");
    expect(relativeLinks(text)).toEqual([
      { target: "proxy.md#tls", line: 1 },
      { target: "cli.md", line: 6 },
    ]);
  });
});

describe("quoted commands", () => {
  it("are shell block lines, continuations joined, and inline spans; other blocks are left out", () => {
    const text = [
      "Run `nlq ask --preset fast` or:",
      "```sh",
      "nlq index \\",
      "  --url postgresql://x/y",
      "```",
      "```json",
      '{ "args": ["--bogus"] }',
      "```",
    ].join("\n");
    expect(quotedCommands(text)).toEqual([
      { text: "nlq ask --preset fast", line: 1, kind: "span" },
      { text: "nlq index  --url postgresql://x/y", line: 3, kind: "block" },
    ]);
  });
});

describe("invocations", () => {
  const npmScripts = new Map([["bench:proxy", "bench/proxy/run-proxy-benchmark.ts"]]);

  it("find nlq however it is started, after variables, between pipes, not in comments or quotes", () => {
    const line =
      'NLQ_MODEL=x npx nlq ask "how many -- nl: are there?" --url u --json | head; node apps/cli/bin/nlq.mjs demo load --replace # nlq bench --no';
    expect(invocationsIn(line, npmScripts)).toEqual([
      { program: "nlq", words: ["ask"], flags: ["--url", "--json"] },
      { program: "nlq", words: ["demo", "load"], flags: ["--replace"] },
    ]);
    expect(invocationsIn("npm run nlq -- log --since=7d [--limit 20]", npmScripts)).toEqual([
      { program: "nlq", words: ["log"], flags: ["--since", "--limit"] },
    ]);
    expect(invocationsIn("npx tsx apps/cli/src/cli/main.ts bench retrieval --corpus c.jsonl", npmScripts)).toEqual([
      { program: "nlq", words: ["bench", "retrieval"], flags: ["--corpus"] },
    ]);
  });

  it("find the repository's scripts run through tsx, node or npm run, and leave other programs alone", () => {
    expect(invocationsIn("npx tsx bench/fuzz/proxy-fuzz-main.ts --frames 10", npmScripts)).toEqual([
      { program: "script", script: "bench/fuzz/proxy-fuzz-main.ts", flags: ["--frames"] },
    ]);
    expect(invocationsIn("npm run -s bench:proxy -- --json", npmScripts)).toEqual([
      { program: "script", script: "bench/proxy/run-proxy-benchmark.ts", flags: ["--json"] },
    ]);
    expect(invocationsIn('psql "postgresql://x" -c "select 1" && curl -s --fail u', npmScripts)).toEqual([]);
  });

  it("skip prose and messages about nlq", () => {
    expect(invocationsIn('nlq eval: --limit must be a whole number ≥ 1, got "ten"', npmScripts)).toEqual([]);
  });
});

describe("nlq's commands and flags", () => {
  it("come from the commander definitions, subcommands included", async () => {
    const commands = await nlqCommandFlags();
    expect(commands.get("ask")).toContain("--preset");
    expect(commands.get("demo load")).toContain("--anchor-date");
    expect(commands.get("start")).toContain("--no-web");
    expect(commands.get("bench presets")).toContain("--questions");
    expect(commands.get("")).toContain("--version");
    expect(commands.get("proxy")).not.toContain("--preset");
    expect(commandNamed(["bench", "presets"], commands)).toBe("bench presets");
    expect(commandNamed(["ask"], commands)).toBe("ask");
    expect(commandNamed([], commands)).toBe("");
    expect(commandNamed(["indx"], commands)).toBeUndefined();
  });

  it("of scripts come from their parseArgs options; a missing script has none", () => {
    const fuzzer = scriptFlags(root, "bench/fuzz/proxy-fuzz-main.ts");
    expect(fuzzer).toContain("--frames");
    expect(fuzzer).not.toContain("--bogus");
    expect(scriptFlags(root, "bench/no-such-script.ts")).toBeUndefined();
    expect(npmScriptFiles(root).get("bench:proxy")).toBe("bench/proxy/run-proxy-benchmark.ts");
  });
});

describe("variable names", () => {
  it("are whole NLQ_ names, not prefixes before a placeholder", () => {
    const text = "NLQ_MODEL and NLQ_MODEL_<STEP>, NLQ_TLS_* and `NLQ_TLS_CERT`; XNLQ_NOT, NLQ_lower";
    expect([...variablesNamedIn(text)]).toEqual(["NLQ_MODEL", "NLQ_TLS_CERT"]);
  });

  it("in a test, count only when read from the environment", () => {
    const test = 'process.env.NLQ_SHARED_DATA; env["NLQ_E2E_PORT"]; parse({ NLQ_SOMETHING: "x" })';
    expect([...variablesReadByTest(test)]).toEqual(["NLQ_SHARED_DATA", "NLQ_E2E_PORT"]);
  });
});
