import { VerifiedExampleStore } from "@nlq/adapters";
import type { ServiceSettings } from "@nlq/engine";
import { type ReadableTable, readableTablesSql, suggestionsFor } from "./catalog-suggestions";
import { resolveScriptedModelPaths } from "./scripted-model-paths";
import { webMetadataStore } from "./web-resources";
import type { WebUser } from "./web-user";

/**
 * The suggestion chips of the page for this user: a scripted model's recorded questions, else the data source's
 * verified examples and questions about the tables the user's role may read (asked on the role's own connection).
 * A failing lookup gives fewer chips, never an error page.
 */
export async function pageSuggestions(user: WebUser, service: ServiceSettings): Promise<string[]> {
  const model = resolveScriptedModelPaths(process.env).NLQ_MODEL?.trim();
  if (model?.startsWith("scripted:")) return suggestionsFor({ model, verifiedQuestions: [], tables: [] });
  const [verifiedQuestions, tables] = await Promise.all([
    webMetadataStore(service)
      .then(async (store) =>
        store
          ? (await new VerifiedExampleStore(store.database).list(user.dataSource, 3)).map((row) => row.question)
          : [],
      )
      .catch(() => []),
    user.pool
      .query<{ relname: string; has_time: boolean }>(readableTablesSql, [4])
      .then((result): ReadableTable[] => result.rows.map((row) => ({ name: row.relname, hasTime: row.has_time })))
      .catch((): ReadableTable[] => []),
  ]);
  return suggestionsFor({ model, verifiedQuestions, tables });
}
