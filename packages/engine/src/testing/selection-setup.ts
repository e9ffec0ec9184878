import type { Catalog } from "../catalog/catalog-types";
import { loadSettings } from "../config/settings";
import { createStepContext } from "../llm/step-context";
import { promptText } from "../models/prompt-text";
import { seededRandom } from "../random/seeded-random";
import { renderSchema } from "../schema/render-schema";
import type { ExecutedCandidate, SelectCandidateOptions } from "../selection/candidate-selector";
import { clusterCandidates } from "../selection/cluster-candidates";
import { catalogTable } from "./catalog-table";
import { mockTextModel } from "./mock-text-model";

/** Test helpers of the selection tests: a small shop catalog and a recorded mock model. */
export const shopCatalog: Catalog = {
  tables: [
    catalogTable("shop", "items", ["id", "name", "price", "category_id"], {
      primaryKey: ["id"],
      foreignKeys: [
        {
          name: "items_category",
          columns: ["category_id"],
          referencedSchema: "shop",
          referencedTable: "categories",
          referencedColumns: ["id"],
        },
      ],
    }),
    catalogTable("shop", "categories", ["id", "title"], { primaryKey: ["id"] }),
    catalogTable("shop", "suppliers", ["id", "company", "country"], { primaryKey: ["id"] }),
  ],
};

export { promptText } from "../models/prompt-text";

/**
 * Selection options over `candidates` (clustered for real) with a step context whose every step is answered by
 * `answer(step, prompt)` (a value or a promise of one); `calls` records each call's step and prompt in order.
 */
export async function selectionSetup(
  candidates: readonly ExecutedCandidate[],
  answer: (step: string, prompt: string) => unknown | Promise<unknown>,
  environment: Record<string, string> = {},
) {
  const calls: Array<{ step: string; prompt: string }> = [];
  const context = createStepContext({
    question: "Which item is the cheapest?",
    settings: loadSettings(environment),
    resolveModel: (step) => ({
      model: mockTextModel((call) => {
        const prompt = promptText(call);
        calls.push({ step, prompt });
        return Promise.resolve(answer(step, prompt)).then((output) => JSON.stringify(output));
      }),
      id: "mock:selector",
      scripted: false,
    }),
  });
  const options: SelectCandidateOptions = {
    candidates,
    clusters: await clusterCandidates(candidates),
    schema: renderSchema(shopCatalog),
    catalog: shopCatalog,
    context,
    random: seededRandom(1),
  };
  return { options, calls, context };
}
