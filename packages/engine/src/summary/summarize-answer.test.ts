import { describe, expect, it } from "vitest";
import { loadSettings } from "../config/settings";
import type { PipelineEvent } from "../contract/events";
import { CancelledError } from "../errors/cancelled-error";
import { createStepContext } from "../llm/step-context";
import { cappedResult } from "../testing/executed-candidate";
import { mockTextModel } from "../testing/mock-text-model";
import { summarizeAnswer, summaryPreviewRows } from "./summarize-answer";

const sql = "SELECT count(*) AS c0 FROM customers";

/** A context whose every step answers with `answer(prompt)` on an AI SDK mock model (no real model). */
function contextWith(
  answer: (prompt: string) => string,
  options: { environment?: Record<string, string>; abortSignal?: AbortSignal; scripted?: boolean } = {},
) {
  const events: PipelineEvent[] = [];
  const prompts: string[] = [];
  const context = createStepContext({
    question: "how many customers are there?",
    settings: loadSettings({ NLQ_PRESET: "balanced", ...options.environment }),
    abortSignal: options.abortSignal,
    onEvent: (event) => events.push(event),
    resolveModel: (step) => ({
      model: mockTextModel((call) => {
        const prompt = call.prompt
          .filter((message) => message.role === "user")
          .flatMap((message) => (typeof message.content === "string" ? [message.content] : message.content))
          .map((part) => (typeof part === "string" ? part : part.type === "text" ? part.text : ""))
          .join("");
        prompts.push(prompt);
        return answer(prompt);
      }),
      id: `mock:${step}`,
      scripted: options.scripted ?? false,
    }),
  });
  const summaryEvents = () => events.filter((event) => event.type.startsWith("summary-"));
  return { context, events, prompts, summaryEvents };
}

describe("summarizeAnswer", () => {
  it("returns the model's sentence, cleaned, with the model that wrote it, between summary-start and summary-end", async () => {
    const { context, prompts, summaryEvents } = contextWith(() =>
      JSON.stringify({ answer: "  There are\n3 customers.\u001b[2J " }),
    );
    const summary = await summarizeAnswer({ sql, result: cappedResult([["3"]]), context });
    expect(summary).toEqual({
      sentence: "There are 3 customers. [2J",
      model: "mock:summarize-answer",
      scripted: false,
    });
    expect(summaryEvents()).toEqual([
      { type: "summary-start", rows: 1 },
      { type: "summary-end", sentence: "There are 3 customers. [2J" },
    ]);
    expect(prompts).toHaveLength(1);
    expect(prompts[0]).toContain("how many customers are there?");
    expect(prompts[0]).toContain(sql);
    expect(prompts[0]).toContain("c0\n3\n(1 row)");
    expect(context.calls.map((call) => call.step)).toEqual(["summarize-answer"]);
  });

  it("drops a sentence whose figure the role's rows do not hold, and says which in summary-end", async () => {
    const { context, summaryEvents } = contextWith(
      () => JSON.stringify({ answer: "Hearth & Harbor has 1,500 customers." }),
      {
        scripted: true,
      },
    );
    // The recorded sentence counts every customer; this role's row-level security shows 157 of them.
    expect(await summarizeAnswer({ sql, result: cappedResult([["157"]]), context })).toBeUndefined();
    expect(summaryEvents().at(-1)).toEqual({
      type: "summary-end",
      omittedReason: "the sentence stated 1,500, which the rows this role got do not hold",
    });
    const { context: all } = contextWith(() => JSON.stringify({ answer: "Hearth & Harbor has 1,500 customers." }));
    expect((await summarizeAnswer({ sql, result: cappedResult([["1500"]]), context: all }))?.sentence).toBe(
      "Hearth & Harbor has 1,500 customers.",
    );
  });

  it("labels a scripted model's sentence as scripted", async () => {
    const { context } = contextWith(() => JSON.stringify({ answer: "Three." }), { scripted: true });
    expect(await summarizeAnswer({ sql, result: cappedResult([["3"]]), context })).toMatchObject({ scripted: true });
  });

  it(`shows the model at most the first ${summaryPreviewRows} rows and says how many there were`, async () => {
    const rows = Array.from({ length: 50 }, (_, index) => [`row-${index}`]);
    const { context, prompts } = contextWith(() => JSON.stringify({ answer: "Fifty rows." }));
    await summarizeAnswer({ sql, result: cappedResult(rows, { truncated: true }), context });
    expect(prompts[0]).toContain(`row-${summaryPreviewRows - 1}`);
    expect(prompts[0]).not.toContain(`row-${summaryPreviewRows}\n`);
    expect(prompts[0]).toContain(`(first ${summaryPreviewRows} of at least 50 rows (cut by the row limit))`);
  });

  it("has no sentence when the call fails, and says why in summary-end", async () => {
    const { context, summaryEvents } = contextWith(() => {
      throw new Error("provider unavailable");
    });
    expect(await summarizeAnswer({ sql, result: cappedResult([]), context })).toBeUndefined();
    const [start, end] = summaryEvents();
    expect(start).toEqual({ type: "summary-start", rows: 0 });
    expect(end).toMatchObject({ type: "summary-end", omittedReason: expect.stringContaining("provider unavailable") });
    expect(end).not.toHaveProperty("sentence");
  });

  it("has no sentence when the output breaks the schema or holds no text", async () => {
    for (const output of [{ sentence: "Three." }, { answer: "" }, { answer: " \n " }]) {
      const { context } = contextWith(() => JSON.stringify(output));
      expect(await summarizeAnswer({ sql, result: cappedResult([["3"]]), context })).toBeUndefined();
    }
  });

  it("cuts a sentence past the cap (the length is checked after parsing, not by the output schema)", async () => {
    const { context } = contextWith(() => JSON.stringify({ answer: "x".repeat(400) }));
    const summary = await summarizeAnswer({ sql, result: cappedResult([["3"]]), context });
    expect(Array.from(summary?.sentence ?? "")).toHaveLength(300);
    expect(summary?.sentence.endsWith("…")).toBe(true);
  });

  it("skips the call when the question's budget is already spent", async () => {
    const { context, prompts, summaryEvents } = contextWith(() => JSON.stringify({ answer: "Three." }), {
      environment: { NLQ_MAX_LLM_CALLS: "1" },
    });
    context.budget.reserve("generate-candidate");
    expect(await summarizeAnswer({ sql, result: cappedResult([["3"]]), context })).toBeUndefined();
    expect(prompts).toEqual([]);
    expect(summaryEvents()).toEqual([
      { type: "summary-start", rows: 1 },
      { type: "summary-end", omittedReason: "the language-model call budget is spent (1 calls)" },
    ]);
  });

  it("does nothing when the preset switches the step off", async () => {
    const { context, prompts, events } = contextWith(() => JSON.stringify({ answer: "Three." }), {
      environment: { NLQ_PRESET: "fast" },
    });
    expect(await summarizeAnswer({ sql, result: cappedResult([["3"]]), context })).toBeUndefined();
    expect(prompts).toEqual([]);
    expect(events).toEqual([]);
  });

  it("propagates the client's cancel instead of dropping the sentence", async () => {
    const controller = new AbortController();
    const { context } = contextWith(
      () => {
        controller.abort();
        throw new Error("aborted");
      },
      { abortSignal: controller.signal },
    );
    await expect(summarizeAnswer({ sql, result: cappedResult([["3"]]), context })).rejects.toBeInstanceOf(
      CancelledError,
    );
  });
});
