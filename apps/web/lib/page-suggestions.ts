import type { MetadataStore } from "@nlq/adapters";
import { type ReadableTable, readableTablesSql, suggestionsFor } from "./catalog-suggestions";
import { examplesForUser } from "./examples-for-user";
import { resolveScriptedModelPaths } from "./scripted-model-paths";
import { webMetadataStore } from "./web-resources";
import type { WebSettings } from "./web-settings";
import type { WebUser } from "./web-user";

/** Verified questions among the chips at most. */
const maximumVerifiedSuggestions = 3;

/**
 * The suggestion chips of the page for this user: a scripted model's recorded questions, else the verified examples
 * the user's role may be shown (`examplesForUser`: its own and administrators' shared ones, checked as that role) and
 * questions about the tables the role may read (asked on the role's own connection). A failing lookup gives fewer
 * chips, never an error page.
 */
export async function pageSuggestions(
  user: WebUser,
  service: WebSettings,
  openStore: (service: WebSettings) => Promise<MetadataStore | undefined> = webMetadataStore,
): Promise<string[]> {
  const model = resolveScriptedModelPaths(process.env).NLQ_MODEL?.trim();
  if (model?.startsWith("scripted:")) return suggestionsFor({ model, verifiedQuestions: [], tables: [] });
  const [verifiedQuestions, tables] = await Promise.all([
    openStore(service)
      .then(async (store) =>
        store ? (await examplesForUser(user, store, maximumVerifiedSuggestions)).map((row) => row.question) : [],
      )
      .catch(() => []),
    user.pool
      .query<{ relname: string; has_time: boolean }>(readableTablesSql, [4])
      .then((result): ReadableTable[] => result.rows.map((row) => ({ name: row.relname, hasTime: row.has_time })))
      .catch((): ReadableTable[] => []),
  ]);
  return suggestionsFor({ model, verifiedQuestions, tables });
}
