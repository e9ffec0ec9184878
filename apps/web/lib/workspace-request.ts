import { administratorSql, type MetadataStore, VerifiedExampleStore, WebThreadStore } from "@nlq/adapters";
import { NlqError } from "@nlq/engine";
import { authorizeRequest, errorResponse } from "./authorize-request";
import { webMetadataStore } from "./web-resources";
import { loadWebSettings } from "./web-settings";
import type { WebUser } from "./web-user";

const historyUnavailableErrorMarker = Symbol.for("nlq.error.HistoryUnavailableError");

/** The metadata store is not configured or cannot be opened: history and examples are unavailable. SQLSTATE 55000. */
export class HistoryUnavailableError extends NlqError {
  readonly [historyUnavailableErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is HistoryUnavailableError {
    return NlqError.hasMarker(error, historyUnavailableErrorMarker);
  }

  constructor() {
    super("History and verified examples need the metadata store (NLQ_METADATA_URL), which is not available.", {
      code: "55000",
    });
  }
}

/** What a history or verified-example route works with: the user and the stores, scoped to them by the routes. */
export interface Workspace {
  readonly user: WebUser;
  readonly store: MetadataStore;
  readonly threads: WebThreadStore;
  readonly examples: VerifiedExampleStore;
}

/**
 * Runs a history/examples route: authorizes the request (sign-in, same origin for changes), opens the stores, and
 * turns a thrown typed error into its JSON response (503 when the metadata store is unavailable).
 */
export async function withWorkspace(
  request: Request,
  handle: (workspace: Workspace) => Promise<Response>,
): Promise<Response> {
  const authorization = await authorizeRequest(request);
  if (!authorization.user) return authorization.response;
  try {
    const store = await webMetadataStore(loadWebSettings(process.env));
    if (!store) return Response.json({ error: errorDataOf(new HistoryUnavailableError()) }, { status: 503 });
    return await handle({
      user: authorization.user,
      store,
      threads: new WebThreadStore(store.database),
      examples: new VerifiedExampleStore(store.database),
    });
  } catch (error) {
    if (!NlqError.isInstance(error)) console.error("nlq web: request failed", error);
    return errorResponse(error);
  }
}

function errorDataOf(error: NlqError) {
  return { code: error.code, name: error.name, message: error.message };
}

/**
 * Whether the user's role is a verified-example administrator — a superuser, or a member of
 * `NLQ_WEB_EXAMPLE_ADMIN_ROLE` (default `nlq_example_admin`; `none`: superusers only) — asked as that role. What an
 * administrator verifies is shared with every role (still checked against each role's privileges and rows); an
 * administrator also edits and deletes shared examples. Anyone else's examples are its own.
 */
export async function isAdministrator(
  user: WebUser,
  administratorRole = loadWebSettings(process.env).webExampleAdministratorRole,
): Promise<boolean> {
  const result = await user.pool.query<{ administrator: boolean }>(administratorSql, [administratorRole]);
  return result.rows[0]?.administrator === true;
}

/** The user as an editor of verified examples: its role and whether it is an administrator. */
export async function exampleEditor(user: WebUser): Promise<{ role: string; administrator: boolean }> {
  return { role: user.role, administrator: await isAdministrator(user) };
}

/** A 404 with a typed error body. */
export function notFound(what: string): Response {
  return Response.json({ error: { code: "42704", name: "NotFound", message: `No such ${what}.` } }, { status: 404 });
}
