import { loadSettings } from "@nlq/engine";
import { cookies } from "next/headers";
import Link from "next/link";
import { type ReadableTable, readableSchema } from "../../lib/readable-schema";
import { resolveScriptedModelPaths } from "../../lib/scripted-model-paths";
import { sessionCookieName } from "../../lib/session-cookie";
import { loadWebSettings } from "../../lib/web-settings";
import { currentWebUser } from "../../lib/web-user";

export const dynamic = "force-dynamic";

/** The tables and columns the signed-in role may read: descriptions, keys and a few values (a data dictionary). */
export default async function SchemaPage() {
  const service = loadWebSettings(process.env);
  const user = await currentWebUser((await cookies()).get(sessionCookieName)?.value, service);
  let tables: ReadableTable[] = [];
  let failure: string | undefined;
  if (user) {
    try {
      const timeout = loadSettings(resolveScriptedModelPaths(process.env)).statementTimeoutMilliseconds;
      tables = await readableSchema(user, timeout);
    } catch {
      failure = "The schema could not be read just now; reload the page to try again.";
    }
  }
  return (
    <main className="page">
      <header className="page-header">
        <h1>
          nlq <span className="page-header-subtitle">what your role may read</span>
        </h1>
        <Link href="/">Back to the chat</Link>
      </header>
      {!user ? (
        <p>
          <Link href="/">Sign in</Link> first.
        </p>
      ) : failure ? (
        <p className="error-box" role="alert">
          {failure}
        </p>
      ) : (
        <div className="schema">
          <p className="schema-note">
            {tables.length} {tables.length === 1 ? "table" : "tables"} readable as <code>{user.role}</code>: only what
            this role holds SELECT on, and sample values as row-level security lets it see them.
          </p>
          {tables.map((table) => (
            <details key={table.name} className="schema-table">
              <summary>
                <span className="schema-table-name">{table.name}</span>{" "}
                <span className="schema-table-meta">
                  {table.kind === "table" ? "" : `${table.kind} · `}
                  {table.columns.length} {table.columns.length === 1 ? "column" : "columns"}
                  {table.description ? ` · ${table.description}` : ""}
                </span>
              </summary>
              {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard */}
              {/* biome-ignore lint/a11y/useSemanticElements: columns are not a set of form fields */}
              <div className="table-scroll" role="group" tabIndex={0} aria-label={`Columns of ${table.name}`}>
                <table className="result-table schema-columns">
                  <caption className="visually-hidden">Columns of {table.name}</caption>
                  <thead>
                    <tr>
                      <th scope="col">column</th>
                      <th scope="col">type</th>
                      <th scope="col">description</th>
                      <th scope="col">values</th>
                    </tr>
                  </thead>
                  <tbody>
                    {table.columns.map((column) => (
                      <tr key={column.name}>
                        <td>
                          <code>{column.name}</code>
                          {table.primaryKey.includes(column.name) ? " (key)" : ""}
                        </td>
                        <td>{column.type}</td>
                        <td>{column.description ?? ""}</td>
                        <td>{column.values.join(", ")}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              {table.foreignKeys.length > 0 ? (
                <p className="schema-keys">References: {table.foreignKeys.join("; ")}</p>
              ) : null}
            </details>
          ))}
        </div>
      )}
    </main>
  );
}
