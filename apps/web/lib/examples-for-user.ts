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
  /**
   * How it came to be verified, in words and without another role's name: "accepted by you", "corrected by you",
   * "picked from 3 readings by you" (a confirmed reading, `picked`), "picked from 3 readings" (an administrator's).
   */
  readonly label: string;
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
    label: exampleLabel(example, role),
    yours: example.verifiedBy === role,
    shared: example.sharedWithAllRoles,
    updatedAt: example.updatedAt,
  };
}

const sourceWords: Readonly<Record<string, string>> = {
  accepted: "accepted",
  corrected: "corrected",
  admin: "edited",
  picked: "picked from its readings",
};

/**
 * The words /examples shows for how a pair was verified. A confirmed reading keeps the count of its provenance
 * ("picked from 3 readings by alice" → "picked from 3 readings by you"); the role's name becomes the viewer's "you",
 * and another role's (shared) pair names nobody — the list says "shared by an administrator" beside it.
 */
export function exampleLabel(example: Pick<VerifiedExampleRow, "source" | "provenance" | "verifiedBy">, role: string) {
  const who = example.verifiedBy === role ? " by you" : "";
  const offered = example.source === "picked" ? /^picked from (\d+) readings?\b/.exec(example.provenance ?? "") : null;
  if (offered) {
    const count = Number(offered[1]);
    return `picked from ${count} reading${count === 1 ? "" : "s"}${who}`;
  }
  return `${sourceWords[example.source] ?? example.source}${who}`;
}
