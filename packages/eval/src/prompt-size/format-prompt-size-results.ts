import { median, percentile } from "../statistics";
import type { PromptSizeBenchmarkResult } from "./run-prompt-size-benchmark";

/** Default Markdown file of the results (the lead merges it into BENCHMARKS.md). */

function round(value: number, digits = 1): string {
  return Number.isFinite(value) ? value.toFixed(digits) : "n/a";
}

/** The results as Markdown: table of medians, the exact command and the method's caveats. */
export function formatPromptSizeResults(result: PromptSizeBenchmarkResult, command: string): string {
  const measurements = result.measurements;
  const selected = measurements.map((measurement) => measurement.selectedPromptTokens);
  const ratios = measurements.map((measurement) => measurement.fullPromptTokens / measurement.selectedPromptTokens);
  const selection = measurements.map((measurement) => measurement.largestSelectionPromptTokens);
  const latency = measurements.map((measurement) => measurement.retrievalMilliseconds);
  const vectorStoreLatency = measurements.map((measurement) => measurement.vectorStoreContextMilliseconds);
  const goldTotal = measurements.reduce((total, measurement) => total + measurement.goldColumns, 0);
  const goldKept = measurements.reduce((total, measurement) => total + measurement.goldColumnsKept, 0);
  const complete = measurements.filter((measurement) => measurement.goldColumnsKept === measurement.goldColumns).length;
  return `## Prompt size and retrieval latency on the Spider warehouse

Warehouse: ${result.tables} tables, ${result.columns} columns (one PostgreSQL schema per Spider database), ${measurements.length} questions of \`train_queries.csv\` (every n-th).

| measure | median | p90 |
|---|---|---|
| generation prompt, whole warehouse schema (tokens ≈ chars/4) | ${result.fullPromptTokens} | ${result.fullPromptTokens} |
| generation prompt after schema selection (tokens ≈ chars/4) | ${median(selected)} | ${percentile(selected, 90)} |
| reduction (whole / selected) | ×${round(median(ratios))} | ×${round(percentile(ratios, 10))} (p10) |
| largest selection-step prompt (select_tables/select_columns, after preselection) | ${median(selection)} | ${percentile(selection, 90)} |
| non-LLM retrieval path per question, ms (keywords → value index + in-process description search + CRUSH) | ${round(median(latency))} | ${round(percentile(latency, 90))} |
| retrieve_context alone through the embedded vector store (dense exact scan per probe), ms | ${round(median(vectorStoreLatency))} | ${round(percentile(vectorStoreLatency, 90))} |

Gold columns present in the selected schema: ${goldKept}/${goldTotal} (${round((100 * goldKept) / Math.max(1, goldTotal))} %); questions with every gold column kept: ${complete}/${measurements.length}.
Setup (load indexed catalog, value index, embed ${result.columns} columns for CRUSH): ${round(result.setupMilliseconds / 1000)} s.

Method and caveats:
- **No language model is involved.** The selection steps (select_tables, select_columns) and the CRUSH hallucination are answered by a scripted model whose choices are the gold tables/columns of each question, extracted from the gold MySQL SQL by a tolerant identifier matcher (\`packages/eval/src/prompt-size/gold-columns.ts\`). The reduction is therefore an upper bound of what a real model achieves; misses come only from the non-LLM preselection (CRUSH budget, value and description retrieval), which a gold table must survive.
- Tokens: no tokenizer package is installed; tokens are approximated as characters / 4. The ratio is what matters.
- Keywords come from \`heuristicKeywords\` (no extract_keywords call); the offline embedder is used for description vectors and CRUSH.
- Latency: the selector's path uses the in-process sparse postings index (\`createCatalogContextIndex\`, \`createCatalogSchemaRetriever\`: exact cosine, built once per catalog); the embedded vector store's dense scan is shown separately for comparison (Qdrant would search server-side).
- Latency: one process on a shared 2-core machine, embedded vector store (exact in-process search), value index loaded from the metadata store.

Commands (warehouse loaded as in \`bench/spider-warehouse/README.md\`; \`nlq\` is \`npx tsx apps/cli/src/cli/main.ts\`):

\`\`\`sh
NLQ_HOME=/tmp/nlq-warehouse nlq index --url postgresql://postgres@127.0.0.1:5432/spider_warehouse
${command}
\`\`\`
`;
}
