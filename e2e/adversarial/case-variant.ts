import type pg from "pg";

/**
 * The session variants a case runs under: the default session; `standard_conforming_strings = off` set by
 * `ALTER ROLE … SET` or by a session `SET`; inside the client's open transaction holding uncommitted work (with the
 * setting on, or off); inside an aborted transaction, where the question must fail cleanly.
 */
export type SessionVariant =
  | "default"
  | "sco-off-role"
  | "sco-off-session"
  | "open-transaction"
  | "open-transaction-sco-off"
  | "aborted-transaction";

export const isOpenTransaction = (variant: SessionVariant) =>
  variant === "open-transaction" || variant === "open-transaction-sco-off";

/** Statements that put the client's session into the variant (after its ordinary state is set up). */
export async function enterVariant(client: pg.Client, variant: SessionVariant, marker: string): Promise<void> {
  if (variant === "sco-off-session" || variant === "open-transaction-sco-off") {
    await client.query("SET standard_conforming_strings = off");
  }
  if (isOpenTransaction(variant) || variant === "aborted-transaction") {
    await client.query("BEGIN");
    await client.query(`INSERT INTO journal (marker) VALUES ('${marker}')`);
  }
  if (variant === "aborted-transaction") {
    await client.query("SELECT 1 / 0").catch(() => undefined);
    await untilReady(client);
  }
}

/**
 * Waits for the ReadyForQuery that follows an ErrorResponse: node-postgres rejects a query on the error, before the
 * server has finished aborting and reported its transaction status.
 */
export async function untilReady(client: pg.Client): Promise<void> {
  const state = client as unknown as { readyForQuery: boolean };
  while (!state.readyForQuery) await new Promise((resolve) => setImmediate(resolve));
}
