/**
 * Prompt size per question from the prompts the model relay captured (issue 27 item 5): every
 * `<relay-dir>/log/*.request.json` written since `--since` is attributed to the sample's question whose text it
 * carries, and its prompt characters (system, instructions and user text) summed per question. Tokens are given as
 * characters / 4 — an approximation, labelled as such (the relay's own usage figures are that too).
 *
 *   npx tsx bench/knowledge/count-prompt-characters.ts --relay-dir /tmp/relay --questions questions.jsonl
 *     [--since 2026-12-02T01:00:00Z] [--out prompts.json]
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { type AskedQuestion, attributePrompts, median, requestPromptText } from "./prompt-characters";

const { values } = parseArgs({
  options: {
    "relay-dir": { type: "string" },
    questions: { type: "string" },
    since: { type: "string" },
    out: { type: "string" },
  },
});
if (values["relay-dir"] === undefined || values.questions === undefined) {
  throw new Error("--relay-dir <the relay's --dir> and --questions <questions.jsonl> are required");
}
const since = values.since === undefined ? 0 : Date.parse(values.since);
if (Number.isNaN(since)) throw new Error(`--since is not a date: ${values.since}`);
const questions: AskedQuestion[] = readFileSync(values.questions, "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line) as AskedQuestion);
const log = join(values["relay-dir"], "log");
const prompts = readdirSync(log)
  .filter((name) => name.endsWith(".request.json"))
  .map((name) => join(log, name))
  .filter((file) => statSync(file).mtimeMs >= since)
  .map((file) => requestPromptText(JSON.parse(readFileSync(file, "utf8"))));
const figures = attributePrompts(prompts, questions);
const characters = [...figures.charactersByQuestion.values()];
const total = characters.reduce((sum, value) => sum + value, 0);
const summary = {
  questions: questions.length,
  requests: prompts.length,
  unattributedRequests: figures.unattributed,
  promptCharactersPerQuestion: {
    median: median(characters),
    mean: questions.length === 0 ? 0 : total / questions.length,
    total,
  },
  approximateTokensPerQuestion: {
    median: median(characters) / 4,
    mean: questions.length === 0 ? 0 : total / 4 / questions.length,
  },
  perQuestion: questions.map((question) => ({
    id: question.id,
    requests: figures.requestsByQuestion.get(question.id) ?? 0,
    promptCharacters: figures.charactersByQuestion.get(question.id) ?? 0,
  })),
};
if (values.out !== undefined) writeFileSync(values.out, `${JSON.stringify(summary, null, 2)}\n`);
process.stdout.write(
  `prompt characters per question (from ${prompts.length} captured requests, ${figures.unattributed} unattributed): median ${summary.promptCharactersPerQuestion.median}, mean ${summary.promptCharactersPerQuestion.mean.toFixed(0)} (≈ ${summary.approximateTokensPerQuestion.median.toFixed(0)} / ${summary.approximateTokensPerQuestion.mean.toFixed(0)} tokens at 4 characters a token)\n`,
);
