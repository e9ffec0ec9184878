// Public API of @nlq/eval: evaluation and benchmark harnesses, outside the runtime path. The CLI's `nlq bench …`
// commands load it lazily; bench/ scripts import it too.

export { goldAsCandidatePool, parseCandidatePool } from "./execution/candidate-pool";
export { collectSelectorData } from "./execution/collect-selector-data";
export { compareVerifiedExamples, type VerifiedExampleComparison } from "./execution/compare-verified-examples";
export { buildDefogPool } from "./execution/defog-pool/build-defog-pool";
export { defaultDefogDirectory, loadDefogDatabases } from "./execution/defog-pool/load-defog-databases";
export { evaluateCandidatePool } from "./execution/evaluate-candidate-pool";
export { evaluateQuestions, generationModel, type QuestionTarget } from "./execution/evaluate-questions";
export { createEvaluationExecutor } from "./execution/execute-for-evaluation";
export { createPoolCatalogLoader } from "./execution/pool-catalog";
export { type PoolReport, summarizePool } from "./execution/pool-report";
export { modelSelectorNames, selectionModel } from "./execution/pool-selection";
export { type QuestionReport, summarizeQuestions } from "./execution/question-report";
export { readQuestionFile } from "./execution/question-set";
export { type SelectorDataReport, summarizeSelectorData } from "./execution/selector-data-report";
export { selectorTrainingExamples } from "./execution/selector-training-examples";
export { spiderResultsEqual } from "./execution/spider-result-rule";
export { translateMysqlGold } from "./execution/translate-mysql-gold";
export { readFixtureQuestions } from "./presets/fixture-questions";
export { demoSetting, formatPresetResults, warehouseSetting } from "./presets/format-preset-results";
export { createGoldScriptedModel } from "./presets/gold-scripted-model";
export { summarizePresets } from "./presets/preset-report";
export { type PresetQuestionMeasurement, runPresetBenchmark } from "./presets/run-preset-benchmark";
export { prepareWarehousePresetQuestions } from "./presets/warehouse-preset-questions";
export { formatPromptSizeResults } from "./prompt-size/format-prompt-size-results";
export { runPromptSizeBenchmark } from "./prompt-size/run-prompt-size-benchmark";
export {
  type RetrievalQuestion,
  readRetrievalCorpus,
  readRetrievalQuestions,
} from "./retrieval/retrieval-benchmark-data";
export { meanRecallByBudget } from "./retrieval/retrieval-recall";
export {
  defaultRetrievalBudgets,
  type RetrievalBenchmarkResult,
  type RetrievalMode,
  runRetrievalBenchmark,
} from "./retrieval/run-retrieval-benchmark";
export { buildWarehouseValueIndex } from "./retrieval/warehouse-value-index";
export { formatSchemaSelectionResults } from "./schema-selection/format-schema-selection-results";
export {
  type HallucinationVariant,
  hallucinationVariants,
  runSchemaSelectionBenchmark,
} from "./schema-selection/run-schema-selection-benchmark";
export { median } from "./statistics";
export { formatValueResults } from "./value-index/format-value-results";
export { generateColumnValues } from "./value-index/generate-values";
export { runValueBenchmark } from "./value-index/run-value-benchmark";
export { writeValueResults } from "./value-index/write-value-results";
