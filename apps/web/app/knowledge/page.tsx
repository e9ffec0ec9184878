import { cookies } from "next/headers";
import Link from "next/link";
import { KnowledgeAdmin } from "../../components/knowledge-admin";
import { sessionCookieName } from "../../lib/session-cookie";
import { loadWebSettings } from "../../lib/web-settings";
import { currentWebUser } from "../../lib/web-user";
import { isAdministrator } from "../../lib/workspace-request";

export const dynamic = "force-dynamic";

/** The knowledge entries of the signed-in user's data source (administrators add, edit and decide suggestions). */
export default async function KnowledgePage() {
  const service = loadWebSettings(process.env);
  const user = await currentWebUser((await cookies()).get(sessionCookieName)?.value, service);
  return (
    <main className="page">
      <header className="page-header">
        <h1>
          nlq <span className="page-header-subtitle">knowledge</span>
        </h1>
        <Link href="/">Back to the chat</Link>
      </header>
      {user ? (
        <KnowledgeAdmin administrator={await isAdministrator(user)} />
      ) : (
        <p>
          <Link href="/">Sign in</Link> first.
        </p>
      )}
    </main>
  );
}
