import { type MetadataStore, type VerifiedExampleRow, verifiedExamplesForRole } from "@nlq/adapters";
import { loadSettings } from "@nlq/engine";
import { resolveScriptedModelPaths } from "./scripted-model-paths";
import { withUserSession } from "./user-session";
import type { WebUser } from "./web-user";

/**
 * The verified examples `user`'s role may be shown, most recently changed first (at most `limit`): its own and
 * administrators' shared ones that pass the checks against the data as that role (`verifiedExamplesForRole`), on a
 * connection of the user's own pool. Throws `ConfigurationError` on bad `NLQ_*` settings.
 */
export async function examplesForUser(
  user: WebUser,
  store: MetadataStore,
  limit: number,
): Promise<VerifiedExampleRow[]> {
  const settings = loadSettings(resolveScriptedModelPaths(process.env));
  return withUserSession(user, (session) =>
    verifiedExamplesForRole({
      database: store.database,
      dataSource: user.dataSource,
      role: user.role,
      session: session.executor,
      limit,
      allowedFunctions: settings.allowedFunctions,
      statementTimeoutMilliseconds: settings.statementTimeoutMilliseconds,
    }),
  );
}

/** One example as a role sees it: whose it is, but never the name of another role. */
export interface ExampleView {
  readonly id: string;
  readonly question: string;
  readonly sql: string;
  readonly source: string;
  /** True when the viewing role verified it. */
  readonly yours: boolean;
  /** True when an administrator shared it with every role. */
  readonly shared: boolean;
  readonly updatedAt: Date;
}

/** What the examples list shows `role` of a pair: no other role's name. */
export function exampleView(example: VerifiedExampleRow, role: string): ExampleView {
  return {
    id: example.id,
    question: example.question,
    sql: example.sql,
    source: example.source,
    yours: example.verifiedBy === role,
    shared: example.sharedWithAllRoles,
    updatedAt: example.updatedAt,
  };
}
