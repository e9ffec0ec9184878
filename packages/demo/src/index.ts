// Public API of @nlq/demo: the generated "Hearth & Harbor" demo database and its loader.

export { demoTableNames } from "./demo-schema";
export { DEFAULT_DEMO_ANCHOR_DATE, DEFAULT_DEMO_SEED, generateDemoDataset } from "./generate-demo-dataset";
export { loadDemoData } from "./load-demo-data";
export { renderDemoSql } from "./render-demo-sql";
