import type { MetadataStore } from "@nlq/adapters";
import { readableTablesSql, type SuggestedTable, suggestionsFor } from "./catalog-suggestions";
import { examplesForUser } from "./examples-for-user";
import { webMetadataStore } from "./web-resources";
import type { WebSettings } from "./web-settings";
import type { WebUser } from "./web-user";

/** Verified questions among the chips at most. */
const maximumVerifiedSuggestions = 3;

/**
 * The suggestion chips of the page for this user: with a scripted model (`NLQ_MODEL=scripted:…`), the first of its
 * `recordedQuestions` (the page reads the fixture once, for these and for the question box); else the verified
 * examples the user's role may be shown (`examplesForUser`: its own and administrators' shared ones, checked as that
 * role) and questions about the tables the role may read (asked on the role's own connection). A failing lookup gives
 * fewer chips, never an error page.
 */
export async function pageSuggestions(
  user: WebUser,
  service: WebSettings,
  recordedQuestions: readonly string[],
  openStore: (service: WebSettings) => Promise<MetadataStore | undefined> = webMetadataStore,
): Promise<string[]> {
  if (/^scripted:./.test(process.env.NLQ_MODEL?.trim() ?? ""))
    return suggestionsFor({ recordedQuestions, verifiedQuestions: [], tables: [] });
  const [verifiedQuestions, tables] = await Promise.all([
    openStore(service)
      .then(async (store) =>
        store ? (await examplesForUser(user, store, maximumVerifiedSuggestions)).map((row) => row.question) : [],
      )
      .catch(() => []),
    user.pool
      .query<{ relname: string; has_time: boolean }>(readableTablesSql, [4])
      .then((result): SuggestedTable[] => result.rows.map((row) => ({ name: row.relname, hasTime: row.has_time })))
      .catch((): SuggestedTable[] => []),
  ]);
  return suggestionsFor({ recordedQuestions: undefined, verifiedQuestions, tables });
}
