import { createPgExecutor } from "@nlq/adapters";
import pg from "pg";
import { createExclusiveQueue, type RoleSession } from "./role-session";

/** A role's open connection and the `RoleSession` the tools use over it. */
export interface RoleConnection {
  readonly role: RoleSession;
  /** The PostgreSQL role the connection logged in as (`current_user`). */
  readonly roleName: string;
  /** True when the server asked for the password (so it checked it), false when it let the role in without one. */
  readonly passwordChecked: boolean;
  /** Settles when the connection has ended: closed by `close`, or lost (the server went away, the backend was terminated). */
  readonly ended: Promise<void>;
  close(): Promise<void>;
}

/**
 * Connects to `url` (as its role, with its password if any, else PGPASSWORD or ~/.pgpass) and wraps the connection
 * for the tools (its `backgroundLogin` logs in the same way). Notes whether PostgreSQL asked for the URL's password
 * (`passwordChecked`): node-postgres reads a password function only when the server's authentication asks for one
 * (password, md5 or SCRAM), never under `trust`. A connection error after the login (the server went away) only marks
 * the connection unusable: the next call reports it as a tool error.
 */
export async function connectRole(url: string, applicationName = "nlq mcp"): Promise<RoleConnection> {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  // A background value-index build logs in as the session did: with this URL's password, or — the URL having none —
  // from the same PGPASSWORD / ~/.pgpass the session itself used (stdio; an HTTP client always brings a password).
  const backgroundLogin = () => ({ url, ambientCredentials: password === "" });
  parsed.password = "";
  let passwordChecked = false;
  const client = new pg.Client({ connectionString: parsed.toString(), application_name: applicationName });
  // Set after construction: the connection string's (empty) password would override a `password` option. A URL
  // without a password keeps node-postgres's own sources (PGPASSWORD, ~/.pgpass).
  if (password !== "") {
    (client as unknown as { password: () => string }).password = () => {
      passwordChecked = true;
      return password;
    };
  }
  client.on("error", () => undefined);
  const ended = new Promise<void>((resolve) => client.once("end", () => resolve()));
  await client.connect();
  try {
    const who = await client.query<{ current_user: string }>("SELECT current_user");
    const roleName = who.rows[0]?.current_user ?? decodeURIComponent(parsed.username);
    return {
      role: {
        session: createPgExecutor(client, { name: "nlq-mcp" }),
        url: parsed.toString(),
        roleName,
        backgroundLogin,
        exclusive: createExclusiveQueue(),
      },
      roleName,
      passwordChecked,
      ended,
      close: () => client.end().catch(() => undefined),
    };
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
}
