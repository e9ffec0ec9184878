import { cookies } from "next/headers";
import Link from "next/link";
import { VerifiedExamplesAdmin } from "../../components/verified-examples-admin";
import { sessionCookieName } from "../../lib/session-cookie";
import { loadWebSettings } from "../../lib/web-settings";
import { currentWebUser } from "../../lib/web-user";
import { isAdministrator } from "../../lib/workspace-request";

export const dynamic = "force-dynamic";

/** The verified examples of the signed-in user's data source (edit and delete for administrator roles). */
export default async function ExamplesPage() {
  const service = loadWebSettings(process.env);
  const user = await currentWebUser((await cookies()).get(sessionCookieName)?.value, service);
  return (
    <main className="page">
      <header className="page-header">
        <h1>
          nlq <span className="page-header-subtitle">verified examples</span>
        </h1>
        <Link href="/">Back to the chat</Link>
      </header>
      {user ? (
        <VerifiedExamplesAdmin administrator={await isAdministrator(user)} />
      ) : (
        <p>
          <Link href="/">Sign in</Link> first.
        </p>
      )}
    </main>
  );
}
