// Public API of nlq's demo database (re-exported from @nlq/core).
export { DemoTablesExistError } from "./demo-errors";
export { demoTableDefinitions, demoTableNames } from "./demo-schema";
export type * from "./demo-types";
export {
  DEFAULT_DEMO_ANCHOR_DATE,
  DEFAULT_DEMO_SEED,
  type GenerateDemoDatasetOptions,
  generateDemoDataset,
} from "./generate-demo-dataset";
export { type DemoPglite, type LoadDemoDataOptions, type LoadDemoDataResult, loadDemoData } from "./load-demo-data";
export { type RenderDemoSqlOptions, renderDemoSql } from "./render-demo-sql";
export { seededRandom } from "./seeded-random";
