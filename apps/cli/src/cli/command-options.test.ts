import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Command } from "commander";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { UsageError } from "./cli-input";
import { commandCatalog } from "./command-catalog";
import {
  benchValuesOptionsSchema,
  evalOptionsSchema,
  parseCommandOptions,
  parseListenAddress,
  proxyOptionsSchema,
} from "./command-options";

let directory: string;
let existingFile: string;
const missingFile = "/nonexistent-nlq-dir/missing.jsonl";
/** Nothing listens on port 1: a command that connected before checking its options would fail with exit code 1. */
const unreachableUrl = "postgresql://nobody@127.0.0.1:1/nothing";

beforeAll(() => {
  directory = mkdtempSync(path.join(tmpdir(), "nlq-command-options-"));
  existingFile = path.join(directory, "pool.jsonl");
  writeFileSync(existingFile, "");
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/**
 * Runs `nlq <argv>` in this process with every command registered as `main.ts` registers it, capturing stderr and
 * stdout; commander's own errors are thrown (exitOverride) and reported with their exit code.
 */
async function runNlq(argv: string[]): Promise<{ stderr: string; stdout: string; exitCode: number }> {
  let stderr = "";
  let stdout = "";
  const program = new Command()
    .name("nlq")
    .exitOverride()
    .configureOutput({ writeErr: (text) => (stderr += text), writeOut: (text) => (stdout += text) });
  for (const command of commandCatalog) await command.register(program);
  const writeError = vi.spyOn(process.stderr, "write").mockImplementation((text) => {
    stderr += String(text);
    return true;
  });
  const write = vi.spyOn(process.stdout, "write").mockImplementation((text) => {
    stdout += String(text);
    return true;
  });
  const previousExitCode = process.exitCode;
  process.exitCode = 0;
  try {
    await program.parseAsync(argv, { from: "user" });
    return { stderr, stdout, exitCode: Number(process.exitCode ?? 0) };
  } finally {
    process.exitCode = previousExitCode;
    writeError.mockRestore();
    write.mockRestore();
  }
}

afterEach(() => vi.restoreAllMocks());

describe("every command refuses a bad option value before any work (exit 2, naming the flag)", () => {
  const cases: ReadonlyArray<[string, () => string[], string]> = [
    [
      "ask --preset",
      () => ["ask", "how many?", "--url", unreachableUrl, "--preset", "turbo"],
      'nlq ask: --preset must be fast, balanced, max or a preset .json file, got "turbo"',
    ],
    [
      "ask: an empty question",
      () => ["ask", "  ", "--url", unreachableUrl],
      'nlq ask: the question is empty: nlq ask "how many customers are there?"',
    ],
    [
      "ask --url",
      () => ["ask", "how many?", "--url", "mysql://admin:hunter2@db/app"],
      'nlq ask: --url must be a postgresql://user@host:port/database URL, got "mysql://admin:***@db/app"',
    ],
    [
      "proxy --listen",
      () => ["proxy", "--upstream", unreachableUrl, "--listen", "localhost:65536"],
      'nlq proxy: --listen must be host:port or a port (0-65535), e.g. 0.0.0.0:6432, got "localhost:65536"',
    ],
    [
      "proxy --tls-cert, --marker",
      () => ["proxy", "--upstream", unreachableUrl, "--marker", "::", "--tls-cert", missingFile],
      `nlq proxy: --marker must be a word that opens a question in a comment, e.g. "nl:", got "::"; --tls-cert must be an existing file, got "${missingFile}"`,
    ],
    [
      "demo load --anchor-date",
      () => ["demo", "load", "--url", unreachableUrl, "--anchor-date", "2027-02-30"],
      'nlq demo load: --anchor-date must be a date as YYYY-MM-DD after 2022-06-30 (the demo\'s orders start on 2022-01-01), got "2027-02-30"',
    ],
    [
      "demo sql --schema",
      () => ["demo", "sql", "--schema", ""],
      'nlq demo sql: --schema must be a non-empty name, got ""',
    ],
    [
      "index --url",
      () => ["index", "--url", "postgresql:///db"],
      'nlq index: --url names no host: "postgresql:///db" (e.g. postgresql://user@127.0.0.1:5432/db)',
    ],
    [
      "index --catalog-files",
      () => ["index", "--url", unreachableUrl, "--catalog-files", missingFile],
      `nlq index: --catalog-files must be an existing file or directory, got "${missingFile}"`,
    ],
    [
      "eval --limit",
      () => ["eval", "--candidates", existingFile, "--url", unreachableUrl, "--limit", "0"],
      'nlq eval: --limit must be a whole number ≥ 1, got "0"',
    ],
    [
      "eval --selector-data",
      () => ["eval", "--candidates", existingFile, "--url", unreachableUrl, "--selector-data", missingFile],
      `nlq eval: --selector-data must be a file in an existing directory, got "${missingFile}"`,
    ],
    [
      "eval without an input",
      () => ["eval", "--url", unreachableUrl],
      "nlq eval: pass exactly one of --candidates FILE and --questions FILE",
    ],
    [
      "eval --compare-verified-examples without --questions",
      () => ["eval", "--candidates", existingFile, "--url", unreachableUrl, "--compare-verified-examples"],
      "nlq eval: --compare-verified-examples needs --questions FILE",
    ],
    [
      "eval --split-seed",
      () => ["eval", "--questions", existingFile, "--url", unreachableUrl, "--split-seed", "one"],
      'nlq eval: --split-seed must be a whole number ≥ 0, got "one"',
    ],
    [
      "selector-data --out, --seed",
      () => [
        "selector-data",
        "--questions",
        existingFile,
        "--url",
        unreachableUrl,
        "--out",
        missingFile,
        "--seed",
        "x",
      ],
      `nlq selector-data: --out must be a file in an existing directory, got "${missingFile}"; --seed must be a whole number ≥ 0, got "x"`,
    ],
    [
      "selector-data --url",
      () => ["selector-data", "--questions", existingFile, "--url", "not-a-url", "--out", existingFile],
      'nlq selector-data: --url must be a postgresql://user@host:port/database URL, got "not-a-url"',
    ],
    [
      "bench retrieval --budgets",
      () => ["bench", "retrieval", "--corpus", existingFile, "--questions", existingFile, "--budgets", "3,x"],
      'nlq bench retrieval: --budgets must be comma-separated whole numbers ≥ 1, got "3,x"',
    ],
    [
      "bench values --pg-trgm-max, --levels",
      () => ["bench", "values", "--levels", "100,0", "--pg-trgm-max", "-1"],
      'nlq bench values: --levels must be comma-separated whole numbers ≥ 1, got "100,0"; --pg-trgm-max must be a whole number ≥ 0, got "-1"',
    ],
    [
      "bench prompt-size --crush-budget",
      () => ["bench", "prompt-size", "--url", unreachableUrl, "--crush-budget", "many"],
      'nlq bench prompt-size: --crush-budget must be a whole number ≥ 1, got "many"',
    ],
    [
      "bench presets --model",
      () => ["bench", "presets", "--url", unreachableUrl, "--model", "gpt-4o"],
      'nlq bench presets: --model must be provider:model, e.g. openai:gpt-4o-mini or scripted:fixtures/demo-model.json, got "gpt-4o"',
    ],
    [
      "bench presets --presets",
      () => ["bench", "presets", "--url", unreachableUrl, "--presets", "fast,turbo"],
      'nlq bench presets: --presets must be fast, balanced, max or a preset .json file, got "turbo"',
    ],
    [
      "bench presets: no preset",
      () => ["bench", "presets", "--url", unreachableUrl, "--presets", " , "],
      "nlq bench presets: --presets must name at least one preset, e.g. fast,balanced,max",
    ],
    [
      "bench schema-selection --limit, --per-question",
      () => ["bench", "schema-selection", "--limit", "0", "--per-question", missingFile],
      `nlq bench schema-selection: --limit must be a whole number ≥ 1, got "0"; --per-question must be a file in an existing directory, got "${missingFile}"`,
    ],
    [
      "bench schema-selection --variants",
      () => [
        "bench",
        "schema-selection",
        "--corpus",
        existingFile,
        "--questions",
        existingFile,
        "--variants",
        "crush-magic",
      ],
      'nlq bench schema-selection: --variants: unknown variant "crush-magic" (question-only, crush-no-hallucination, crush-recorded, crush-gold)',
    ],
    [
      "bench presets --questions, --count",
      () => ["bench", "presets", "--url", unreachableUrl, "--questions", missingFile, "--count", "0"],
      `nlq bench presets: --questions must be an existing file, got "${missingFile}"; --count must be a whole number ≥ 1, got "0"`,
    ],
  ];

  it.each(cases)("%s", async (_, argv, message) => {
    const result = await runNlq(argv());
    expect(result).toEqual({ stderr: `${message}\n`, stdout: "", exitCode: 2 });
  });

  it("quotes at most a short prefix of a long value", async () => {
    const result = await runNlq([
      "eval",
      "--candidates",
      existingFile,
      "--url",
      unreachableUrl,
      "--limit",
      "9x".repeat(5_000),
    ]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^nlq eval: --limit must be a whole number ≥ 1, got "(9x){20}…"\n$/);
  });
});

describe("parseCommandOptions", () => {
  it("returns the options parsed: numbers as numbers, lists as lists", () => {
    expect(
      parseCommandOptions(benchValuesOptionsSchema, {
        levels: "100_000,1000000",
        keywords: "200",
        bruteForceKeywords: "0",
        bruteForceSeconds: "300",
        pgTrgmMax: "0",
        storedMax: "1000000",
        output: path.join(directory, "RESULTS.md"),
        write: false,
      }),
    ).toEqual({
      levels: [100_000, 1_000_000],
      keywords: 200,
      bruteForceKeywords: 0,
      bruteForceSeconds: 300,
      pgTrgmMax: 0,
      storedMax: 1_000_000,
      output: path.join(directory, "RESULTS.md"),
      write: false,
    });
    expect(
      parseCommandOptions(evalOptionsSchema, { candidates: existingFile, limit: "5", preset: " fast ", json: true }),
    ).toMatchObject({ limit: 5, preset: "fast" });
  });

  it("throws one UsageError naming every bad flag in kebab case", () => {
    const attempt = () =>
      parseCommandOptions(proxyOptionsSchema, {
        marker: "nl:",
        listen: "x:y",
        upstream: "http://h",
        tlsKey: missingFile,
      });
    expect(attempt).toThrow(UsageError);
    expect(attempt).toThrow(
      `--upstream must be a postgresql://user@host:port/database URL, got "http://h"; --listen must be host:port or a port (0-65535), e.g. 0.0.0.0:6432, got "x:y"; --tls-key must be an existing file, got "${missingFile}"`,
    );
  });

  it("reads --listen as host:port, [ipv6]:port or a port alone", () => {
    expect(parseListenAddress("0.0.0.0:7000")).toEqual({ host: "0.0.0.0", port: 7000 });
    expect(parseListenAddress("[::1]:5555")).toEqual({ host: "::1", port: 5555 });
    expect(parseListenAddress("6432")).toEqual({ host: "127.0.0.1", port: 6432 });
    expect(parseListenAddress("h:port")).toBeUndefined();
    expect(parseListenAddress("h:65536")).toBeUndefined();
  });
});
