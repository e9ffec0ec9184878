import { rememberPickedReading, sessionAuthority } from "@nlq/adapters";
import { type Answer, NlqError, type Settings } from "@nlq/engine";
import type { McpToolSettings, RoleSession } from "../role-session";

/**
 * Keeps a picked reading as what the role means from now on (MCP's `choose_reading` with `remember`, or the
 * elicitation form's "use this from now on"): who the role is and whether it is an administrator are asked on its own
 * session, then `rememberPickedReading` stores it in the metadata store. Resolves to the sentence the result carries
 * (what was kept, or why nothing was); never throws but for the client's cancel.
 */
export async function rememberReading(
  role: RoleSession,
  tools: McpToolSettings,
  settings: Settings,
  answer: Answer,
  dataSource: string,
  abortSignal?: AbortSignal,
): Promise<string> {
  const store = tools.metadataStore;
  if (!store) return "nothing was remembered: this server keeps no metadata store (NLQ_METADATA_URL)";
  try {
    const editor = await role.exclusive(() =>
      sessionAuthority({
        session: role.session,
        statementTimeoutMilliseconds: settings.statementTimeoutMilliseconds,
        administratorRole: tools.administratorRole ?? "nlq_example_admin",
        abortSignal,
      }),
    );
    const remembered = await rememberPickedReading({ database: store.database, dataSource, editor, answer });
    return remembered.message;
  } catch (error) {
    if (abortSignal?.aborted) throw error;
    return `nothing was remembered: ${NlqError.isInstance(error) ? error.message : "the metadata store could not keep it"}`;
  }
}
