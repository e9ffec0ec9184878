// Public API of @nlq/eval: evaluation and benchmark harnesses, outside the runtime path. The CLI's `nlq bench …`
// commands load it lazily; bench/ scripts import it too.

export { goldAsCandidatePool, type PoolQuestion, parseCandidatePool } from "./execution/candidate-pool";
export { collectSelectorData, type SelectorDataOutcome } from "./execution/collect-selector-data";
export {
  type CompareVerifiedExamplesOptions,
  compareVerifiedExamples,
  type VerifiedExampleComparison,
} from "./execution/compare-verified-examples";
export { buildDefogPool } from "./execution/defog-pool/build-defog-pool";
export { defaultDefogDirectory, loadDefogDatabases } from "./execution/defog-pool/load-defog-databases";
export { evaluateCandidatePool } from "./execution/evaluate-candidate-pool";
export { evaluateQuestions, generationModel } from "./execution/evaluate-questions";
export { createEvaluationExecutor } from "./execution/execute-for-evaluation";
export { expandGoldAlternatives } from "./execution/gold-alternatives";
export { createPoolCatalogLoader } from "./execution/pool-catalog";
export { type ModelSelectorFigure, type PoolReport, summarizePool } from "./execution/pool-report";
export { modelSelectorNames, selectionModel } from "./execution/pool-selection";
export { type QuestionReport, type QuestionResult, summarizeQuestions } from "./execution/question-report";
export { type GoldQuestion, readQuestionFile } from "./execution/question-set";
export { type SelectorDataReport, summarizeSelectorData } from "./execution/selector-data-report";
export { type SelectorTrainingExample, selectorTrainingExamples } from "./execution/selector-training-examples";
export { type GoldTranslation, translateMysqlGold } from "./execution/translate-mysql-gold";
export {
  exampleSql,
  splitForVerifiedExamples,
  type VerifiedExampleSplit,
  verifiedExamplesFrom,
} from "./execution/verified-example-split";
export { readFixtureQuestions } from "./presets/fixture-questions";
export {
  demoSetting,
  formatPresetResults,
  type PresetResultsSetting,
  warehouseSetting,
} from "./presets/format-preset-results";
export { createGoldScriptedModel, type GoldScript, perturbGold } from "./presets/gold-scripted-model";
export { type PresetFigures, summarizePresets } from "./presets/preset-report";
export {
  type PresetMeasurement,
  type PresetQuestion,
  type PresetQuestionMeasurement,
  runPresetBenchmark,
} from "./presets/run-preset-benchmark";
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
export { buildWarehouseValueIndex, parseWarehouseSchema } from "./retrieval/warehouse-value-index";
export { formatSchemaSelectionResults } from "./schema-selection/format-schema-selection-results";
export { catalogFromRetrievalCorpus } from "./schema-selection/retrieval-corpus-catalog";
export {
  type HallucinationVariant,
  hallucinationVariants,
  runSchemaSelectionBenchmark,
  type SchemaSelectionBenchmarkResult,
} from "./schema-selection/run-schema-selection-benchmark";
export { median, percentile } from "./statistics";
export { formatValueResults } from "./value-index/format-value-results";
export { runValueBenchmark } from "./value-index/run-value-benchmark";
export { writeValueResults } from "./value-index/write-value-results";
