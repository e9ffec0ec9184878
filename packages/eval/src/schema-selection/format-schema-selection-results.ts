import type {
  HallucinationVariant,
  SchemaSelectionBenchmarkResult,
  SelectionStage,
} from "./run-schema-selection-benchmark";

const variantLabels: Record<HallucinationVariant, string> = {
  "question-only": "question-only (CRUSH off: learnt ranking + descriptions)",
  "crush-no-hallucination": "CRUSH, hallucination answers no table (question probe only)",
  "crush-recorded": "CRUSH, **recorded** hallucination (live figure, no gold)",
  "crush-gold": "CRUSH, gold columns as the hallucination (upper bound)",
};

const stageLabels: Record<SelectionStage, string> = {
  offered: "offered to the selection steps",
  "keep-all": "after the steps, rule keeps all offered",
  "gold-steps": "after the steps, steps answered by gold (upper bound)",
};

function percent(value: number): string {
  return `${(100 * value).toFixed(1)} %`;
}

/** The results as Markdown: one row per hallucination variant and stage, then the settings, method and command. */
export function formatSchemaSelectionResults(result: SchemaSelectionBenchmarkResult, command: string): string {
  const rows = result.variants.flatMap((variant) =>
    (["offered", "keep-all", "gold-steps"] as const).map((stage) => {
      const summary = result.summary[variant]![stage];
      return `| ${variantLabels[variant]} | ${stageLabels[stage]} | ${percent(summary.meanRecall)} | ${percent(summary.pooledRecall)} | ${percent(summary.allGoldKept)} | ${summary.meanTables.toFixed(1)} | ${summary.meanColumns.toFixed(1)} | ${summary.medianColumns} | ${summary.maxCalls} |`;
    }),
  );
  const recorded = result.questions.flatMap((question) => question.variants["crush-recorded"] ?? []);
  const fallbacks = recorded.filter((measurement) => measurement.crushFallbackReason !== undefined).length;
  const missing = result.questions.reduce((sum, question) => sum + question.goldMissingFromCorpus, 0);
  const settings = result.settings;
  const steps = Object.entries(settings.steps)
    .filter(([, on]) => on)
    .map(([step]) => step)
    .join(", ");
  return `## Gold columns kept by the live schema selection on BirdUnion

Catalog: ${result.tables} tables, ${result.columns} columns (in memory, from the corpus); ${result.questions.length} questions${result.withEvidence ? " with the BIRD evidence as the hint" : " (question only, no evidence)"}.
Settings (the live path's, \`loadSettings\`): preset ${settings.preset}, narrowing above ${settings.minimumColumns} columns, learnt ranking ${settings.learnedRetrieval ? "on" : "off"}, steps ${steps}, call budget ${settings.maxLlmCalls}; CRUSH budget the live default.

| narrowing (hallucinate-schema answer) | stage | gold kept, mean per question | gold kept, pooled | questions with all gold | tables | columns (mean) | columns (median) | most calls |
|---|---|---|---|---|---|---|---|---|
${rows.join("\n")}

${recorded.length > 0 ? `Recorded hallucinations CRUSH could not use (its output schema rejected them, so CRUSH fell back to no picks as the live path does): ${fallbacks}/${recorded.length}.\n` : ""}Gold columns absent from the corpus (counted, never kept): ${missing}. Run time: ${(result.milliseconds / 1000).toFixed(1)} s.

Method:
- **No language model is involved.** The selector is the one an indexed question gets (\`createIndexedSchemaSelector\`, the function \`prepareIndexedQuestion\` calls), over an in-memory catalog of the corpus (no keys but those inferred as \`nlq bench retrieval\` infers them; no value index: the corpus has no values) with the description vectors \`nlq index\` writes, in an in-process embedded vector store. A scripted model answers every step: extract_keywords with the heuristic extractor's keywords; hallucinate_schema per row (the recorded hallucination is the file's \`hallucinated\` field, from the CRUSH4SQL run, not gold); filter_column / select_tables / select_columns by a rule (keep everything offered) or by the gold columns.
- "offered" is the same selector with the selection steps switched off: what the narrowing (CRUSH, learnt ranking, descriptions) hands to filter_column. Gold is used only to count, except in the rows labelled upper bound.
- When no gold column was offered, the gold-answered steps name nothing that exists and each step leaves the schema as it was (the live rule: never an empty schema), so such a question keeps the whole offer; the mean column count shows it, the median hardly.

\`\`\`sh
${command}
\`\`\`
`;
}
