import type { AnswerQuestionOptions } from "@nlq/engine";
import { runReadOnly } from "@nlq/engine";

/**
 * The URL of a server question's database as its asking role, read from its own session: `upstreamUrl`
 * (`postgresql://host:port`) with the session's `current_database()` and `current_user` and no password. Undefined
 * when the session names neither. Runs in a read-only scope under a 5 s statement timeout; fails as that scope does
 * (a session in a failed transaction, a cancelled question).
 */
export async function askingRoleUrl(
  upstreamUrl: string,
  question: Pick<AnswerQuestionOptions, "session" | "transactionStatus" | "abortSignal">,
): Promise<string | undefined> {
  const identity = await runReadOnly(
    {
      session: question.session,
      transactionStatus: question.transactionStatus ?? "idle",
      statementTimeoutMilliseconds: 5_000,
      abortSignal: question.abortSignal,
    },
    // Qualified: the asking role controls its search path and could shadow current_database() to pick another index.
    (query) => query("SELECT pg_catalog.current_database(), current_user"),
  );
  const [database, user] = identity.rows[0] ?? [];
  if (!database || !user) return undefined;
  const url = new URL(upstreamUrl);
  url.pathname = `/${encodeURIComponent(database)}`;
  url.username = encodeURIComponent(user);
  url.password = "";
  return url.toString();
}
