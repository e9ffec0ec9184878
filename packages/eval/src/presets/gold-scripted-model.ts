import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3Usage } from "@ai-sdk/provider";
import { heuristicKeywords, ModelCallError, type ResolvedModel } from "@nlq/engine";
import { type GoldSchema, goldAsHallucination } from "../prompt-size/gold-columns";

/** What the gold-scripted model answers for one question. */
export interface GoldScript {
  /** The question's gold SQL in PostgreSQL (translated from Spider's MySQL). */
  readonly sql: string;
  /** Gold tables and columns (`extractGoldSchema`), answered by the selection and hallucination steps. */
  readonly goldSchema: GoldSchema;
}

/** The alias that marks the perturbed query, so the scripted selection agent can tell it from the gold. */
export const perturbedAlias = "nlq_perturbed_copy";

/**
 * The deliberately wrong candidate: the gold's rows twice (`UNION ALL` of the gold with itself). It runs wherever the
 * gold runs and differs from it whenever the gold returns a row, so the candidates form two result clusters.
 */
export function perturbGold(sql: string): string {
  return `SELECT * FROM (${sql}) AS gold_result UNION ALL SELECT * FROM (${sql}) AS ${perturbedAlias}`;
}

/** The generator sample that answers the perturbed query: the third query-plan sample (only `max` draws three). */
export const perturbedSample = { step: "generate-query-plan", sample: 2 } as const;

const zeroUsage: LanguageModelV3Usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};

const sqlSteps = new Set([
  "generate-candidate",
  "generate-divide-and-conquer",
  "generate-query-plan",
  "generate-from-examples",
]);

function promptText(options: LanguageModelV3CallOptions): string {
  return options.prompt
    .flatMap((message) =>
      message.role === "system"
        ? [message.content]
        : message.content.flatMap((part) => (part.type === "text" ? [part.text] : [])),
    )
    .join("\n");
}

/**
 * Answers one step from the gold: extract-keywords with `heuristicKeywords`; hallucinate-schema with the gold tables
 * and columns (`goldAsHallucination`, as the prompt-size benchmark does); filter-column marks nothing irrelevant (a
 * no-op); select-tables/select-columns with the gold tables and columns; every SQL-writing step with the gold SQL,
 * except `perturbedSample`, which answers `perturbGold`; synthesize-examples with the question and its gold as the one
 * example; fix-candidate with the gold (so a failed or empty gold is kept as it is and the loop stops); the pairwise
 * selection agent picks the candidate that is not the perturbed one; the answer sentence is a fixed one that says it
 * is scripted. Any other step has no scripted answer.
 */
export function goldScriptedAnswer(
  step: string,
  sample: number,
  question: string,
  script: GoldScript,
  prompt: string,
): unknown {
  const { goldSchema } = script;
  if (sqlSteps.has(step)) {
    const perturbed = step === perturbedSample.step && sample === perturbedSample.sample;
    return {
      reasoning: perturbed
        ? "scripted: the gold's rows twice (the deliberately wrong sample)"
        : "scripted: the gold SQL",
      sql: perturbed ? perturbGold(script.sql) : script.sql,
    };
  }
  switch (step) {
    case "extract-keywords":
      return { keywords: heuristicKeywords(question) };
    case "hallucinate-schema":
      return { tables: goldAsHallucination(goldSchema) };
    case "filter-column":
      return { columns: [] };
    case "select-tables":
      return { chain_of_thought_reasoning: "scripted: the gold tables", table_names: goldSchema.tables };
    case "select-columns":
      return {
        chain_of_thought_reasoning: "scripted: the gold columns",
        tables: goldSchema.tables.map((table) => ({ table, columns: goldSchema.columns.get(table) ?? [] })),
      };
    case "find-readings":
      return { phrases: [] };
    case "synthesize-examples":
      return { examples: [{ question, sql: script.sql }] };
    case "fix-candidate":
      return { reasoning: "scripted: the gold SQL", sql: script.sql };
    case "summarize-answer":
      return { answer: "Scripted from the gold SQL: the result answers the question." };
    case "select-candidate": {
      const candidateA = prompt.slice(prompt.indexOf("Candidate A"), prompt.indexOf("Candidate B"));
      return {
        reasoning: "scripted: the candidate that is not the perturbed one",
        answer: candidateA.includes(perturbedAlias) ? "B" : "A",
      };
    }
    default:
      throw new ModelCallError(`gold-scripted model has no answer for step "${step}"`, { step });
  }
}

/**
 * A scripted model (no language model is involved) whose answers are derived from each question's gold SQL
 * (`goldScriptedAnswer`), keyed by the question the pipeline passes in `providerOptions.nlq`. Calls made with it are a
 * floor of what a real model needs, and its accuracy means nothing.
 */
export function createGoldScriptedModel(scripts: ReadonlyMap<string, GoldScript>): ResolvedModel {
  const model: LanguageModelV3 = {
    specificationVersion: "v3",
    provider: "scripted",
    modelId: "gold-from-train-queries",
    supportedUrls: {},
    async doGenerate(options) {
      const nlq = options.providerOptions?.nlq as { step?: unknown; question?: unknown; sample?: unknown } | undefined;
      const step = typeof nlq?.step === "string" ? nlq.step : "(unknown step)";
      const question = typeof nlq?.question === "string" ? nlq.question : "";
      const script = scripts.get(question);
      if (!script) throw new ModelCallError(`gold-scripted model has no gold for question "${question}"`, { step });
      const sample = typeof nlq?.sample === "number" ? nlq.sample : 0;
      const answer = goldScriptedAnswer(step, sample, question, script, promptText(options));
      return {
        content: [{ type: "text", text: JSON.stringify(answer) }],
        finishReason: { unified: "stop", raw: "scripted" },
        usage: zeroUsage,
        warnings: [],
      };
    },
    async doStream() {
      throw new ModelCallError("gold-scripted model does not stream", { step: "(stream)" });
    },
  };
  return { model, id: "scripted:gold-from-train-queries", scripted: true };
}
