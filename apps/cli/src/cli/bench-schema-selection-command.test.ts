import { readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Command } from "commander";
import { afterEach, describe, expect, it, vi } from "vitest";
import { registerBenchSchemaSelectionCommand } from "./bench-schema-selection-command";

const fixtures = join(
  dirname(fileURLToPath(import.meta.url)),
  "../../../../packages/eval/src/schema-selection/fixtures",
);
const corpus = join(fixtures, "library.corpus.jsonl");
const questions = join(fixtures, "library.questions.jsonl");

async function run(...args: string[]): Promise<{ output: string; errors: string; exitCode: number }> {
  let output = "";
  let errors = "";
  vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    output += chunk.toString();
    return true;
  });
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    errors += chunk.toString();
    return true;
  });
  const program = new Command().name("nlq").exitOverride();
  const bench = program.command("bench").exitOverride();
  registerBenchSchemaSelectionCommand(bench);
  for (const command of bench.commands)
    command.exitOverride().configureOutput({
      writeErr: (text) => {
        errors += text;
      },
    });
  const previousExitCode = process.exitCode;
  process.exitCode = 0;
  try {
    await program.parseAsync(["node", "nlq", "bench", "schema-selection", ...args]);
  } catch {
    // exitOverride: the error text is in `errors`
  }
  const exitCode = Number(process.exitCode ?? 0);
  process.exitCode = previousExitCode;
  return { output, errors, exitCode };
}

describe("nlq bench schema-selection", () => {
  afterEach(() => {
    vi.restoreAllMocks();
    delete process.env.NLQ_SCHEMA_SELECTION_MIN_COLUMNS;
  });

  it("prints the Markdown table of the chosen variants and writes one JSON object per question", async () => {
    process.env.NLQ_SCHEMA_SELECTION_MIN_COLUMNS = "8";
    const perQuestion = join(tmpdir(), `nlq-bench-schema-selection-${process.pid}.jsonl`);
    const { output } = await run(
      "--corpus",
      corpus,
      "--questions",
      questions,
      "--limit",
      "2",
      "--variants",
      "crush-recorded,question-only",
      "--per-question",
      perQuestion,
    );
    expect(output).toContain("6 tables, 21 columns");
    expect(output).toContain("CRUSH, **recorded** hallucination (live figure, no gold)");
    expect(output).not.toContain("gold columns as the hallucination");
    const lines = (await readFile(perQuestion, "utf8")).trim().split("\n");
    expect(lines.map((line) => JSON.parse(line).id)).toEqual(["library-1", "games-1"]);
    expect(Object.keys(JSON.parse(lines[0]!).variants)).toEqual(["crush-recorded", "question-only"]);
    await rm(perQuestion);
  });

  it("rejects an unknown variant", async () => {
    const { errors, exitCode } = await run("--corpus", corpus, "--questions", questions, "--variants", "crush-magic");
    expect(errors).toContain('unknown variant "crush-magic"');
    expect(exitCode).toBe(2);
  });
});
