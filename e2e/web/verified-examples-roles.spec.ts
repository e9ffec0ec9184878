import { type Browser, expect, type Page, test } from "@playwright/test";
import pg from "pg";
import { runOnTarget, signIn, targetDatabaseUrl } from "./sign-in";

// What one role saves must never reach another (issue 17). On the demo data: the curator (a member of
// nlq_example_admin, so its examples are shared with every role) reads every customer and their e-mail addresses; the
// analyst sees customers 1–10 only (row-level security) and has no grant on customers.email. The curator saves two
// corrected examples; the analyst's /examples page and suggestion chips show the one it may read, never the one that
// names another customer's e-mail address, and never the curator's name.
const curator = "nlq_e2e_ex_curator";
const analyst = "nlq_e2e_ex_analyst";

let secretEmail = "";
let secret = { question: "", sql: "" };
const readable = {
  question: "is there a customer number 3?",
  sql: "SELECT count(*) AS customers FROM customers WHERE customer_id = 3",
};

test.beforeAll(async () => {
  await runOnTarget(`
    DROP POLICY IF EXISTS nlq_e2e_ex_curator_all ON customers;
    DROP POLICY IF EXISTS nlq_e2e_ex_analyst_first ON customers;
    DO $$ BEGIN
      IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'nlq_example_admin') THEN CREATE ROLE nlq_example_admin; END IF;
      IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${curator}') THEN CREATE ROLE ${curator} LOGIN PASSWORD 'curator-e2e'; END IF;
      IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${analyst}') THEN CREATE ROLE ${analyst} LOGIN PASSWORD 'analyst-e2e'; END IF;
    END $$;
    GRANT nlq_example_admin TO ${curator};
    GRANT USAGE ON SCHEMA public TO ${curator}, ${analyst};
    GRANT SELECT ON customers TO ${curator};
    GRANT SELECT (customer_id, first_name, last_name, city, country, loyalty_tier) ON customers TO ${analyst};
    ALTER TABLE customers ENABLE ROW LEVEL SECURITY;
    CREATE POLICY nlq_e2e_ex_curator_all ON customers FOR SELECT TO ${curator} USING (true);
    CREATE POLICY nlq_e2e_ex_analyst_first ON customers FOR SELECT TO ${analyst} USING (customer_id <= 10);
  `);
  const client = new pg.Client({ connectionString: targetDatabaseUrl() });
  await client.connect();
  try {
    secretEmail = (await client.query<{ email: string }>("SELECT email FROM customers WHERE customer_id = 20")).rows[0]!
      .email;
  } finally {
    await client.end();
  }
  secret = {
    question: "does the customer with this e-mail address exist?",
    sql: `SELECT count(*) AS customers FROM customers WHERE email = '${secretEmail.replaceAll("'", "''")}'`,
  };
});

test.afterAll(async () => {
  await runOnTarget(`
    DROP POLICY IF EXISTS nlq_e2e_ex_curator_all ON customers;
    DROP POLICY IF EXISTS nlq_e2e_ex_analyst_first ON customers;
    ALTER TABLE customers DISABLE ROW LEVEL SECURITY;
    REVOKE ALL ON customers FROM ${curator}, ${analyst};
    REVOKE ALL ON SCHEMA public FROM ${curator}, ${analyst};
    REVOKE nlq_example_admin FROM ${curator};
  `);
});

async function signedIn(browser: Browser, role: string, password: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, role, password);
  return page;
}

/** Saves a corrected example through the app's own route, as the page's signed-in role; returns its id. */
async function saveExample(page: Page, example: { question: string; sql: string }): Promise<string> {
  const response = await page.request.post("/api/verified-examples", {
    headers: { origin: new URL(page.url()).origin },
    data: example,
  });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { id: string }).id;
}

test("an administrator's example reaches another role only when that role may read what it uses", async ({
  browser,
}) => {
  const curatorPage = await signedIn(browser, curator, "curator-e2e");
  const ids = [await saveExample(curatorPage, secret), await saveExample(curatorPage, readable)];
  try {
    // The curator's own list has both.
    await curatorPage.goto("/examples");
    const curatorList = curatorPage.getByRole("list").filter({ hasText: readable.question });
    await expect(curatorList).toContainText(secret.question);
    await expect(curatorList).toContainText(secretEmail);

    // The analyst: the readable example, shared by "an administrator" (no name); nothing of the other one.
    const analystPage = await signedIn(browser, analyst, "analyst-e2e");
    const chips = await analystPage.locator("main").textContent();
    expect(chips).not.toContain(secretEmail);
    await analystPage.goto("/examples");
    const item = analystPage.getByRole("listitem").filter({ hasText: readable.question });
    await expect(item).toContainText("shared by an administrator");
    await expect(analystPage.getByRole("listitem").filter({ hasText: secret.question })).toHaveCount(0);
    const shown = (await analystPage.locator("body").textContent()) ?? "";
    expect(shown).not.toContain(secretEmail);
    expect(shown).not.toContain(curator);
    // Not the analyst's to change.
    await expect(item.getByRole("button", { name: `Delete “${readable.question}”` })).toHaveCount(0);
    const listed = await analystPage.request.get("/api/verified-examples");
    expect(JSON.stringify(await listed.json())).not.toContain(secretEmail);
    await analystPage.screenshot({ path: "/tmp/nlq-web-examples-analyst.png", fullPage: true });
  } finally {
    for (const id of ids) {
      await curatorPage.request.delete(`/api/verified-examples/${id}`, {
        headers: { origin: new URL(curatorPage.url()).origin },
      });
    }
  }
});

test("a thumbs-down retracts the example the thumbs-up saved", async ({ browser }) => {
  const page = await signedIn(browser, analyst, "analyst-e2e");
  const question = "how many customers are there?";
  const listed = async () =>
    ((await (await page.request.get("/api/verified-examples")).json()) as { examples: { question: string }[] }).examples
      .map((example) => example.question)
      .filter((text) => text === question);
  await page.getByLabel("Your question").fill(question);
  await page.getByLabel("Your question").press("Enter");
  const answer = page.getByRole("article", { name: "Answer" }).last();
  await expect(answer.getByRole("button", { name: "Right" })).toBeVisible({ timeout: 45_000 });
  await answer.getByRole("button", { name: "Right" }).click();
  await expect(answer.getByRole("status").filter({ hasText: "Saved as a verified example" })).toBeVisible();
  expect(await listed()).toEqual([question]);
  await answer.getByRole("button", { name: "Wrong" }).click();
  await expect(answer.getByRole("status").filter({ hasText: "Removed from the verified examples" })).toBeVisible();
  expect(await listed()).toEqual([]);
});
