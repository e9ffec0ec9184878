import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { z } from "zod";
import { ModelConfigurationError } from "../errors/model-errors";

/**
 * Recorded responses replayed by the `scripted:<file>` model. Format (JSON):
 * `{ "description": "… Scripted: no language model produced these.", "responses": [ { "step", "question", "output" } ] }`.
 * `output` is the object the step's schema expects; `"question": "*"` is the step's fallback. An optional `"sample": n`
 * records the response of one sample of a step that runs several times per question (generators × samples); an entry
 * without `sample` answers every sample that has no entry of its own. An optional `"promptContains": "…"` makes an
 * entry answer only calls whose prompt (system and messages, as text) contains that text; such an entry is preferred
 * to one without a condition, so a fixture can record what a model answers once, say, a verified example reaches
 * the prompt, next to what it answers without it.
 */
export const scriptedFixtureSchema = z.object({
  description: z.string(),
  responses: z.array(
    z.object({
      step: z.string().min(1),
      question: z.string(),
      sample: z.number().int().nonnegative().optional(),
      promptContains: z.string().min(1).optional(),
      output: z.unknown(),
    }),
  ),
});

export type ScriptedFixture = z.infer<typeof scriptedFixtureSchema>;

/** Lower case, collapsed whitespace, trailing `?`, `.` and `!` removed. */
export function normalizeQuestion(question: string): string {
  return question
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[?.!\s]+$/, "");
}

/** Reads a fixture file; relative paths resolve against the current directory. */
export function readScriptedFixture(path: string): { fixture: ScriptedFixture; absolutePath: string } {
  const absolutePath = resolve(process.cwd(), path);
  let text: string;
  try {
    text = readFileSync(/* turbopackIgnore: true */ absolutePath, "utf8");
  } catch (error) {
    throw new ModelConfigurationError(
      `cannot read scripted model fixture ${absolutePath}: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ModelConfigurationError(`scripted model fixture ${absolutePath} is not valid JSON`, { cause: error });
  }
  const parsed = scriptedFixtureSchema.safeParse(json);
  if (!parsed.success) {
    throw new ModelConfigurationError(
      `scripted model fixture ${absolutePath} is malformed: ${parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ")}`,
    );
  }
  return { fixture: parsed.data, absolutePath };
}

/**
 * The recorded output for a step, question, sample and prompt: an exact (normalized) question match first, then the
 * step's `*`; within each, an entry whose `promptContains` the prompt contains first, then one without a condition
 * (an entry whose condition fails never answers); within those, the entry for this `sample` first, then one without
 * `sample`.
 */
export function findScriptedOutput(
  fixture: ScriptedFixture,
  step: string,
  question: string,
  sample = 0,
  prompt = "",
): { output: unknown } | undefined {
  const wanted = normalizeQuestion(question);
  const forStep = fixture.responses.filter((response) => response.step === step);
  const forSample = (responses: typeof forStep) =>
    responses.find((response) => response.sample === sample) ??
    responses.find((response) => response.sample === undefined);
  const forPrompt = (responses: typeof forStep) =>
    forSample(
      responses.filter((response) => response.promptContains !== undefined && prompt.includes(response.promptContains)),
    ) ?? forSample(responses.filter((response) => response.promptContains === undefined));
  const exact = forPrompt(
    forStep.filter((response) => response.question !== "*" && normalizeQuestion(response.question) === wanted),
  );
  const match = exact ?? forPrompt(forStep.filter((response) => response.question === "*"));
  return match ? { output: match.output } : undefined;
}
