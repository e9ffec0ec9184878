import AxeBuilder from "@axe-core/playwright";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { askForAnswer } from "./ask-question";
import { runOnTarget, signIn } from "./sign-in";

// The knowledge page with two roles (issue 27, docs/decisions/2026-12-01-readings-knowledge-and-teaching.md rule 1),
// on the demo data: the curator (a member of nlq_example_admin) reads customers and orders; the analyst reads orders
// and customers without their e-mail addresses. What the curator adds is shared, and reaches the analyst's page only
// when the analyst may read every column it names; what the analyst proposes waits for the curator.
const curator = "nlq_e2e_kn_curator";
const analyst = "nlq_e2e_kn_analyst";
const names = ["net revenue", "contact by e-mail", "loyal customer", "orders are final", "withdrawn idea", "customer"];

test.beforeAll(async () => {
  await runOnTarget(`
    DO $$ BEGIN
      IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'nlq_example_admin') THEN CREATE ROLE nlq_example_admin; END IF;
      IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${curator}') THEN CREATE ROLE ${curator} LOGIN PASSWORD 'curator-e2e'; END IF;
      IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${analyst}') THEN CREATE ROLE ${analyst} LOGIN PASSWORD 'analyst-e2e'; END IF;
    END $$;
    GRANT nlq_example_admin TO ${curator};
    GRANT USAGE ON SCHEMA public TO ${curator}, ${analyst};
    GRANT SELECT ON customers, orders TO ${curator};
    GRANT SELECT ON orders TO ${analyst};
    GRANT SELECT (customer_id, first_name, last_name, city, country, loyalty_tier) ON customers TO ${analyst};
  `);
});

test.afterAll(async ({ browser }) => {
  const page = await signedIn(browser, curator, "curator-e2e");
  await removeTestEntries(page);
  await runOnTarget(`
    REVOKE ALL ON customers, orders FROM ${curator}, ${analyst};
    REVOKE ALL ON SCHEMA public FROM ${curator}, ${analyst};
    REVOKE nlq_example_admin FROM ${curator};
  `);
});

async function signedIn(browser: Browser, role: string, password: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, role, password);
  return page;
}

interface Listed {
  readonly entries: { id: string; name: string }[];
  readonly suggestions: { id: string; name: string }[];
}

/** Removes this spec's entries and suggestions through the app's routes, as the curator. */
async function removeTestEntries(page: Page): Promise<void> {
  const headers = { origin: new URL(page.url()).origin };
  const listed = (await (await page.request.get("/api/knowledge")).json()) as Listed;
  for (const entry of listed.entries.filter((item) => names.includes(item.name))) {
    await page.request.delete(`/api/knowledge/${entry.id}`, { headers });
  }
  for (const entry of listed.suggestions.filter((item) => names.includes(item.name))) {
    await page.request.post(`/api/knowledge/${entry.id}/decision`, { headers, data: { decision: "reject" } });
  }
}

/** Fills the add (or propose) form and submits it. */
async function addEntry(
  page: Page,
  entry: { kind: string; name: string; text: string; sql?: string; references?: string },
  button: "Add" | "Propose",
) {
  const form = page.locator("form.knowledge-form").first();
  // The form empties itself after each save: wait for that before typing the next entry.
  await expect(form.getByLabel("Name", { exact: true })).toHaveValue("");
  await form.getByLabel("Kind").selectOption(entry.kind);
  await form.getByLabel("Name", { exact: true }).fill(entry.name);
  await form.getByLabel("Definition", { exact: true }).fill(entry.text);
  if (entry.sql) await form.getByLabel("SQL expression or condition (optional)").fill(entry.sql);
  if (entry.references) await form.getByLabel(/Tables and columns it names/).fill(entry.references);
  await form.getByRole("button", { name: button }).click();
}

async function expectNoAxeViolations(page: Page, state: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const violations = results.violations.map(
    (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
  );
  expect(violations, `axe violations in state "${state}"`).toEqual([]);
}

test("an administrator's entries reach another role only when it may read what they name; edits keep history", async ({
  browser,
}) => {
  const curatorPage = await signedIn(browser, curator, "curator-e2e");
  await removeTestEntries(curatorPage);
  await curatorPage.getByRole("link", { name: "Knowledge" }).click();
  await expect(curatorPage.getByRole("heading", { name: "Knowledge", exact: true })).toBeVisible();
  await addEntry(
    curatorPage,
    {
      kind: "metric",
      name: "net revenue",
      text: "order totals in dollars",
      sql: "sum(total_amount_usd)",
      references: "public.orders.total_amount_usd",
    },
    "Add",
  );
  await expect(curatorPage.getByRole("status").filter({ hasText: "Added." })).toBeVisible();
  await addEntry(
    curatorPage,
    {
      kind: "term",
      name: "contact by e-mail",
      text: "customers with an e-mail address",
      references: "public.customers.email",
    },
    "Add",
  );
  const entries = curatorPage.getByRole("list", { name: "Entries" });
  await expect(entries.getByRole("listitem").filter({ hasText: "contact by e-mail" })).toBeVisible();

  // Edit: the old version stays in the history.
  const revenue = entries.getByRole("listitem").filter({ hasText: "net revenue" });
  await revenue.getByRole("button", { name: "Edit “net revenue”" }).click();
  // While edited, the item holds the form (its values are not text): found by its Save button.
  const editForm = entries.locator("form.knowledge-form");
  await editForm.getByLabel("Definition", { exact: true }).fill("order totals in dollars, refunds not deducted");
  await editForm.getByRole("button", { name: "Save" }).click();
  await expect(revenue).toContainText("refunds not deducted");
  await revenue.getByRole("button", { name: "History of “net revenue”" }).click();
  const history = revenue.getByRole("list", { name: "Changes of “net revenue”" });
  await expect(history.getByRole("listitem")).toHaveCount(2);
  await expect(history).toContainText("created by you: net revenue — order totals in dollars");
  await expect(history).toContainText("updated by you");
  await expectNoAxeViolations(curatorPage, "knowledge page, administrator, history open");

  // The analyst: the readable entry, shared by "an administrator"; nothing of the one naming customers.email.
  const analystPage = await signedIn(browser, analyst, "analyst-e2e");
  await analystPage.goto("/knowledge");
  const shared = analystPage
    .getByRole("list", { name: "Entries" })
    .getByRole("listitem")
    .filter({ hasText: "net revenue" });
  await expect(shared).toContainText("shared by an administrator");
  await expect(shared.getByRole("button", { name: "Delete “net revenue”" })).toHaveCount(0);
  await expect(shared.getByRole("button", { name: "Edit “net revenue”" })).toHaveCount(0);
  const shown = (await analystPage.locator("body").textContent()) ?? "";
  expect(shown).not.toContain("contact by e-mail");
  expect(shown).not.toContain(curator);
  const listed = JSON.stringify(await (await analystPage.request.get("/api/knowledge")).json());
  expect(listed).not.toContain("contact by e-mail");
  expect(listed).not.toContain(curator);
  // Nor can the analyst reach it by id.
  const hidden = (
    JSON.parse(JSON.stringify(await (await curatorPage.request.get("/api/knowledge")).json())) as Listed
  ).entries.find((entry) => entry.name === "contact by e-mail")!;
  const origin = { origin: new URL(analystPage.url()).origin };
  expect((await analystPage.request.delete(`/api/knowledge/${hidden.id}`, { headers: origin })).status()).toBe(404);
  expect(await (await analystPage.request.get(`/api/knowledge/${hidden.id}/history`)).json()).toEqual({ history: [] });
  await expectNoAxeViolations(analystPage, "knowledge page, analyst");
  // Dark, and on a phone's width.
  await analystPage.emulateMedia({ colorScheme: "dark" });
  await expectNoAxeViolations(analystPage, "knowledge page, analyst, dark");
  await analystPage.setViewportSize({ width: 390, height: 844 });
  await expectNoAxeViolations(analystPage, "knowledge page, analyst, dark, phone");
});

test("a role proposes, an administrator accepts or rejects; delete asks first", async ({ browser }) => {
  const analystPage = await signedIn(browser, analyst, "analyst-e2e");
  await analystPage.goto("/knowledge");
  await addEntry(
    analystPage,
    {
      kind: "term",
      name: "loyal customer",
      text: "loyalty tier gold or platinum",
      references: "public.customers.loyalty_tier",
    },
    "Propose",
  );
  await expect(analystPage.getByRole("status").filter({ hasText: "Proposed" })).toBeVisible();
  await addEntry(analystPage, { kind: "rule", name: "orders are final", text: "orders are never edited" }, "Propose");
  const own = analystPage.getByRole("list", { name: "Suggestions" });
  // A proposal the proposer takes back is gone for the administrator too.
  await addEntry(analystPage, { kind: "term", name: "withdrawn idea", text: "never mind" }, "Propose");
  await own
    .getByRole("listitem")
    .filter({ hasText: "withdrawn idea" })
    .getByRole("button", { name: "Withdraw “withdrawn idea”" })
    .click();
  await expect(own.getByRole("listitem").filter({ hasText: "withdrawn idea" })).toHaveCount(0);
  await expect(own.getByRole("listitem").filter({ hasText: "loyal customer" })).toContainText("proposed by you");
  await expect(analystPage.getByRole("list", { name: "Entries" })).not.toContainText("loyal customer");

  const curatorPage = await signedIn(browser, curator, "curator-e2e");
  await curatorPage.goto("/knowledge");
  const suggestions = curatorPage.getByRole("list", { name: "Suggestions" });
  const loyal = suggestions.getByRole("listitem").filter({ hasText: "loyal customer" });
  await expect(loyal).toContainText(`proposed by ${analyst}`);
  await expect(suggestions).not.toContainText("withdrawn idea");
  await suggestions
    .getByRole("listitem")
    .filter({ hasText: "orders are final" })
    .getByRole("button", { name: "Reject “orders are final”" })
    .click();
  await expect(suggestions.getByRole("listitem").filter({ hasText: "orders are final" })).toHaveCount(0);
  await loyal.getByRole("button", { name: "Accept “loyal customer”" }).click();
  const accepted = curatorPage
    .getByRole("list", { name: "Entries" })
    .getByRole("listitem")
    .filter({ hasText: "loyal customer" });
  await expect(accepted).toContainText("by you, shared with every role");

  await analystPage.reload();
  await expect(
    analystPage.getByRole("list", { name: "Entries" }).getByRole("listitem").filter({ hasText: "loyal customer" }),
  ).toContainText("shared by an administrator");
  await expect(analystPage.locator("body")).not.toContainText("orders are final");

  // Delete asks first: keeping it changes nothing; confirming removes it.
  await accepted.getByRole("button", { name: "Delete “loyal customer”" }).click();
  const confirm = accepted.getByRole("alertdialog", { name: "Delete “loyal customer”?" });
  await expect(confirm).toBeVisible();
  await expectNoAxeViolations(curatorPage, "knowledge page, delete confirmation");
  await confirm.getByRole("button", { name: "Keep it" }).click();
  await expect(accepted).toBeVisible();
  await accepted.getByRole("button", { name: "Delete “loyal customer”" }).click();
  await accepted.getByRole("alertdialog").getByRole("button", { name: "Yes, delete" }).click();
  await expect(curatorPage.getByRole("list", { name: "Entries" })).not.toContainText("loyal customer");
  await analystPage.reload();
  await expect(analystPage.getByRole("list", { name: "Entries" })).not.toContainText("loyal customer");
});

test("an answer lists the knowledge entries that reached its prompts", async ({ browser }) => {
  const curatorPage = await signedIn(browser, curator, "curator-e2e");
  await curatorPage.goto("/knowledge");
  await addEntry(
    curatorPage,
    {
      kind: "term",
      name: "customer",
      text: "a person or company with a row in customers",
      references: "public.customers",
    },
    "Add",
  );
  await expect(curatorPage.getByRole("status").filter({ hasText: "Added." })).toBeVisible();
  await curatorPage.goto("/");
  const answer = await askForAnswer(curatorPage, "how many customers are there?");
  const used = answer.getByRole("list", { name: "Knowledge used" });
  await expect(used).toContainText("term customer");
  await expect(answer.getByRole("link", { name: "see the knowledge page" })).toHaveAttribute("href", "/knowledge");
});
