import { expect, type Page } from "@playwright/test";
import pg from "pg";
import { databaseUrl, e2eDatabaseName, e2eSuperuserPassword } from "./e2e-database";

/** The database the web app under test answers from (launcher mode: the embedded demo; direct: the run's database). */
export function targetDatabaseUrl(): string {
  if (process.env.NLQ_E2E_WEB_SERVER === "direct") return databaseUrl(e2eDatabaseName());
  return `postgresql://postgres:${e2eSuperuserPassword}@127.0.0.1:${process.env.NLQ_E2E_EMBEDDED_PORT ?? "25400"}/demo`;
}

/** Runs SQL on the target database as its superuser. */
export async function runOnTarget(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: targetDatabaseUrl() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Signs in through the form and waits for the chat. */
export async function signIn(page: Page, user = "postgres", password = e2eSuperuserPassword): Promise<void> {
  await page.goto("/");
  await page.getByLabel("PostgreSQL user").fill(user);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("signed-in-role")).toContainText(user);
}
