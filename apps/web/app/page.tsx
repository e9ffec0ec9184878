import { DEFAULT_MAX_QUESTION_LENGTH } from "@nlq/engine";
import { cookies } from "next/headers";
import Link from "next/link";
import { SignInForm } from "../components/sign-in-form";
import { SignOutButton } from "../components/sign-out-button";
import { Workspace } from "../components/workspace";
import { pageSuggestions } from "../lib/page-suggestions";
import { recordedQuestions } from "../lib/recorded-questions";
import { sessionCookieName } from "../lib/session-cookie";
import { loadWebSettings } from "../lib/web-settings";
import { currentWebUser, dataSourceKey } from "../lib/web-user";

/** Read the session and the suggestions on every request. */
export const dynamic = "force-dynamic";

/** `NLQ_MAX_QUESTION_LENGTH` for the question box's counter (the server checks it again); the default when unset. */
function maximumQuestionLength(): number {
  const configured = Number(process.env.NLQ_MAX_QUESTION_LENGTH);
  return Number.isInteger(configured) && configured > 0 ? configured : DEFAULT_MAX_QUESTION_LENGTH;
}

export default async function HomePage() {
  const service = loadWebSettings(process.env);
  const user = await currentWebUser((await cookies()).get(sessionCookieName)?.value, service);
  // A scripted model's fixture, read once: the question box offers every recorded question, the chips the first ones.
  const recorded = user ? recordedQuestions() : [];
  return (
    <>
      <a className="skip-link" href={user ? "#question" : "#sign-in-user"}>
        {user ? "Skip to the question box" : "Skip to sign-in"}
      </a>
      <main className="page">
        <header className="page-header">
          <h1>
            nlq <span className="page-header-subtitle">ask your PostgreSQL database in plain language</span>
          </h1>
          {user ? (
            <div className="page-header-user">
              <span data-testid="signed-in-role">
                {user.singleUser ? "single-user mode as " : "signed in as "}
                <code>{user.role}</code>
              </span>
              <Link href="/schema">Schema</Link>
              <Link href="/examples">Verified examples</Link>
              <Link href="/knowledge">Knowledge</Link>
              {user.singleUser ? null : <SignOutButton />}
            </div>
          ) : null}
        </header>
        {user ? (
          <Workspace
            role={user.role}
            suggestions={await pageSuggestions(user, service, recorded)}
            history={service.metadataUrl !== undefined}
            maxQuestionLength={maximumQuestionLength()}
            recordedQuestions={recorded}
          />
        ) : (
          <SignInForm
            dataSource={service.databaseUrl ? dataSourceKey(service.databaseUrl) : "(DATABASE_URL is not set)"}
          />
        )}
      </main>
    </>
  );
}
