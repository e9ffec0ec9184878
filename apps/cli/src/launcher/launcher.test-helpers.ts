// Helpers for the launcher and `nlq start` tests only (no production code imports this file).
import net from "node:net";
import pg from "pg";

/** A TCP port on 127.0.0.1 that was free a moment ago (listened on with port 0, then closed). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Runs one statement on a fresh node-postgres connection (URL or client config) and closes it. */
export async function queryOnce(connection: string | pg.ClientConfig, text: string): Promise<pg.QueryResult> {
  const client = new pg.Client(connection);
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}
