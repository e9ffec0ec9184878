import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { builtInPresets } from "../config/presets";
import { loadSettings, type Settings } from "../config/settings";
import { createStepContext } from "../llm/step-context";
import { resolveStepModel } from "../models/resolve-model";
import { seededRandom } from "../random/seeded-random";
import { renderSchema } from "../schema/render-schema";
import { executedCandidate } from "../testing/executed-candidate";
import { shopCatalog } from "../testing/selection-setup";
import { clusterCandidates } from "./cluster-candidates";
import { createPairwiseSelector } from "./pairwise-selector";

// A selection agent fine-tuned on `nlq selector-data`'s examples is configured for the selection step alone; the other
// steps keep their model. No language model is called: the OpenAI provider's HTTP requests are answered by a stubbed
// fetch, which records which model each request names.

const fineTuned = "openai:ft:gpt-4o-mini-2024-07-18:acme::sel1";
const scripted = "scripted:fixtures/demo-model.json";

afterEach(() => {
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
});

/** An OpenAI Responses API reply whose only output text is `text`. */
function responsesApiReply(model: string, text: string): Response {
  return new Response(
    JSON.stringify({
      id: "resp_1",
      object: "response",
      created_at: 1_700_000_000,
      status: "completed",
      model,
      output: [
        {
          type: "message",
          id: "msg_1",
          status: "completed",
          role: "assistant",
          content: [{ type: "output_text", text, annotations: [] }],
        },
      ],
      usage: { input_tokens: 120, output_tokens: 9, total_tokens: 129 },
    }),
    { status: 200, headers: { "content-type": "application/json" } },
  );
}

/** Stubs fetch: every request is recorded (URL and model) and answered "A". */
function stubOpenAi(): Array<{ url: string; model: string }> {
  const requests: Array<{ url: string; model: string }> = [];
  vi.stubEnv("OPENAI_API_KEY", "sk-test-not-a-real-key");
  vi.stubGlobal("fetch", async (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const body = JSON.parse(String(init?.body ?? "{}")) as { model?: string };
    requests.push({ url, model: body.model ?? "" });
    return responsesApiReply(body.model ?? "", JSON.stringify({ reasoning: "A filters as asked.", answer: "A" }));
  });
  return requests;
}

async function pairwiseOverTwoClusters(settings: Settings) {
  const candidates = [
    executedCandidate(0, "SELECT name FROM shop.items ORDER BY price LIMIT 1", [["Mug"]], { columnTypes: [25] }),
    executedCandidate(1, "SELECT name FROM shop.items ORDER BY price DESC LIMIT 1", [["Rug"]], { columnTypes: [25] }),
  ];
  const context = createStepContext({ question: "Which item is the cheapest?", settings });
  const outcome = await createPairwiseSelector().select({
    candidates,
    clusters: await clusterCandidates(candidates),
    catalog: shopCatalog,
    schema: renderSchema(shopCatalog),
    context,
    random: seededRandom(1),
  });
  return { outcome, calls: context.calls };
}

describe("a fine-tuned selection model", () => {
  it("is set for the selection step alone with NLQ_MODEL_SELECTION, and the pairwise selector calls it", async () => {
    const settings = loadSettings({ NLQ_MODEL: scripted, NLQ_MODEL_SELECTION: fineTuned, NLQ_PRESET: "max" });
    expect(resolveStepModel(settings, "select-candidate")).toMatchObject({ id: fineTuned, scripted: false });
    expect(resolveStepModel(settings, "generate-candidate")).toMatchObject({ id: scripted, scripted: true });
    expect(resolveStepModel(settings, "fix-candidate")).toMatchObject({ id: scripted, scripted: true });
    // The alias covers the unit tester's steps too; the full step name sets the pairwise agent only.
    expect(resolveStepModel(settings, "generate-unit-tests").id).toBe(fineTuned);
    const pairwiseOnly = loadSettings({ NLQ_MODEL: scripted, NLQ_MODEL_SELECT_CANDIDATE: fineTuned });
    expect(resolveStepModel(pairwiseOnly, "select-candidate").id).toBe(fineTuned);
    expect(resolveStepModel(pairwiseOnly, "generate-unit-tests").id).toBe(scripted);

    const requests = stubOpenAi();
    const { outcome, calls } = await pairwiseOverTwoClusters(settings);
    // Two clusters: one pair, asked in both orders, both times of the fine-tuned model (its id without the provider).
    expect(requests).toEqual([
      { url: "https://api.openai.com/v1/responses", model: "ft:gpt-4o-mini-2024-07-18:acme::sel1" },
      { url: "https://api.openai.com/v1/responses", model: "ft:gpt-4o-mini-2024-07-18:acme::sel1" },
    ]);
    expect(calls.map((call) => [call.step, call.model, call.scripted, call.inputTokens])).toEqual([
      ["select-candidate", fineTuned, false, 120],
      ["select-candidate", fineTuned, false, 120],
    ]);
    // "A" both times: each representative won once.
    expect(outcome.basis).toBe(
      "won 1 of 2 pairwise comparisons against 1 other result clusters; CHASE-SQL Alg. 3 score 1 of 2",
    );
  });

  it("is set by a preset file's stepModels too, below NLQ_MODEL_SELECTION", async () => {
    const directory = mkdtempSync(path.join(tmpdir(), "nlq-fine-tuned-selector-"));
    try {
      const file = path.join(directory, "tuned.json");
      writeFileSync(
        file,
        JSON.stringify({
          ...builtInPresets.max,
          name: "tuned",
          stepModels: { "select-candidate": fineTuned },
        }),
      );
      const settings = loadSettings({ NLQ_MODEL: scripted, NLQ_PRESET: file });
      expect(settings.selector).toBe("pairwise");
      expect(resolveStepModel(settings, "select-candidate").id).toBe(fineTuned);
      expect(resolveStepModel(settings, "generate-candidate").id).toBe(scripted);
      const requests = stubOpenAi();
      const { calls } = await pairwiseOverTwoClusters(settings);
      expect(requests.map((request) => request.model)).toEqual(Array(2).fill("ft:gpt-4o-mini-2024-07-18:acme::sel1"));
      expect(calls.every((call) => call.model === fineTuned)).toBe(true);
      // The variable wins over the preset's entry.
      const overridden = loadSettings({ NLQ_MODEL: scripted, NLQ_PRESET: file, NLQ_MODEL_SELECTION: "openai:gpt-4o" });
      expect(resolveStepModel(overridden, "select-candidate").id).toBe("openai:gpt-4o");
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
