import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { askForResult, runEditedSql, submitQuestion } from "./ask-question";
import { signIn } from "./sign-in";

/** Fails with the violations' ids and targets when axe finds any on the page. */
async function expectNoAxeViolations(page: Page, state: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const violations = results.violations.map(
    (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
  );
  expect(violations, `axe violations in state "${state}"`).toEqual([]);
}

/** Runs `sql` in the last answer's SQL editor; returns that answer's result group. */
async function runInLastAnswer(page: Page, sql: string) {
  const result = page.getByRole("article", { name: "Answer" }).last().getByRole("group", { name: "Result" });
  await runEditedSql(page, result, sql);
  return result;
}

for (const size of [
  { name: "desktop", width: 1280, height: 900 },
  { name: "phone", width: 390, height: 844 },
]) {
  test(`every state is axe clean on ${size.name}, light and dark`, async ({ page }) => {
    // Two colour schemes × four states, each with an axe run and a scripted answer.
    test.setTimeout(240_000);
    await page.setViewportSize({ width: size.width, height: size.height });
    for (const colorScheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme });
      await page.context().clearCookies();
      await page.goto("/");
      await expect(page.getByRole("heading", { name: "Sign in with your database role" })).toBeVisible();
      await expectNoAxeViolations(page, `sign-in ${colorScheme}`);

      await signIn(page);
      await expectNoAxeViolations(page, `empty chat ${colorScheme}`);

      await submitQuestion(page, "show the monthly revenue trend over the last 12 months");
      const answer = page.getByRole("article", { name: "Answer" }).last().getByRole("group", { name: "Result" });
      await expect(answer.getByRole("figure", { name: /chart/ })).toBeVisible({ timeout: 45_000 });
      await expectNoAxeViolations(page, `answer with chart ${colorScheme}`);

      // Sideways bars with the chart controls (x axis, plotted measures).
      await submitQuestion(page, "what is the average order value by store?");
      const stores = page.getByRole("article", { name: "Answer" }).last().getByRole("group", { name: "Result" });
      await expect(stores.getByRole("figure", { name: /chart/ })).toBeVisible({ timeout: 45_000 });
      await expect(page.getByRole("button", { name: "Ask" })).toBeVisible();
      await expectNoAxeViolations(page, `answer with sideways bars ${colorScheme}`);

      await submitQuestion(page, "what is the bounce rate of our website?");
      const failure = page.getByRole("article", { name: "Answer" }).last().getByRole("alert");
      await expect(failure).toContainText("SQLSTATE 22023", { timeout: 45_000 });
      await expectNoAxeViolations(page, `failed question ${colorScheme}`);
      // The composer stays in view after answers, and leaves most of the screen to them (a phone included).
      await expect(page.getByLabel("Your question")).toBeInViewport();
      const composer = await page.locator(".composer").boundingBox();
      expect(composer?.height ?? size.height, "composer height").toBeLessThan(size.height * 0.3);

      await page.goto("/examples");
      await expect(page.getByRole("heading", { name: "Verified examples", exact: true })).toBeVisible();
      await expectNoAxeViolations(page, `verified examples ${colorScheme}`);

      await page.goto("/schema");
      await page.locator("details.schema-table summary").first().click();
      await expect(page.getByRole("table").first()).toBeVisible();
      await expectNoAxeViolations(page, `schema ${colorScheme}`);
    }
  });
}

test("a failed question offers retry and rephrase and shows no server path", async ({ page }) => {
  await signIn(page);
  await submitQuestion(page, "what is the bounce rate of our website?");
  const turn = page.getByRole("article", { name: "Answer" }).last();
  await expect(turn.getByRole("alert")).toContainText("SQLSTATE 22023", { timeout: 45_000 });
  await expect(turn).not.toContainText(/\/(work|home|tmp|usr)\//);
  await turn.getByRole("button", { name: "Rephrase" }).click();
  await expect(page.getByLabel("Your question")).toHaveValue("what is the bounce rate of our website?");
  await expect(page.getByLabel("Your question")).toBeFocused();
  await page.getByLabel("Your question").fill("");
  await turn.getByRole("button", { name: "Retry" }).click();
  await expect(page.getByRole("article", { name: "Answer" })).toHaveCount(2);
  await expect(page.getByRole("article", { name: "Answer" }).last().getByRole("alert")).toContainText(
    "SQLSTATE 22023",
    {
      timeout: 45_000,
    },
  );
});

test("a transport error keeps the question in the box, and Stop leaves a stopped marker", async ({ page }) => {
  await signIn(page);
  await page.route("**/api/chat", (route) => route.abort("connectionreset"));
  await submitQuestion(page, "how many customers are there?");
  await expect(page.getByRole("alert").filter({ hasText: "could not be sent" })).toBeVisible();
  await expect(page.getByLabel("Your question")).toHaveValue("how many customers are there?");
  await expect(page.locator("body")).not.toContainText("Failed to fetch");

  // A request that never answers: Stop ends it and the turn says so.
  await page.unroute("**/api/chat");
  await page.route("**/api/chat", () => undefined);
  await page.getByRole("button", { name: "Ask" }).click();
  await page.getByRole("button", { name: "Stop" }).click();
  await expect(page.getByText("Stopped", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Ask" })).toBeVisible();
  await expectNoAxeViolations(page, "stopped");
});

test("charts follow the column roles and the chart type can be switched", async ({ page }) => {
  await signIn(page);
  await askForResult(page, "how many customers are there?");

  // An identifier beside a measure: bars of the measure labelled by the id, never a bar series of ids.
  let result = await runInLastAnswer(
    page,
    "SELECT customer_id, 10 * customer_id AS spend FROM customers ORDER BY customer_id LIMIT 5",
  );
  await expect(result.getByRole("figure", { name: "Bar chart of spend by customer_id" })).toBeVisible();
  await expect(result.locator(".recharts-bar")).toHaveCount(1);

  // A second category that varies within each country: grouped bars, switchable to stacked and to the table only.
  result = await runInLastAnswer(
    page,
    "SELECT country, CASE WHEN customer_id % 2 = 0 THEN 'even' ELSE 'odd' END AS parity, count(*) AS customers FROM customers GROUP BY 1, 2 ORDER BY 1, 2 LIMIT 8",
  );
  await expect(
    result.getByRole("figure", { name: "Grouped bars chart of customers per parity by country" }),
  ).toBeVisible();
  await result.getByRole("radio", { name: "Stacked bars" }).check();
  await expect(
    result.getByRole("figure", { name: "Stacked bars chart of customers per parity by country" }),
  ).toBeVisible();
  await result.getByRole("radio", { name: "Table only" }).check();
  await expect(result.getByRole("figure", { name: /chart/ })).toHaveCount(0);

  // Time on the x axis: a line; numbers are formatted in the table.
  result = await runInLastAnswer(
    page,
    "SELECT date_trunc('month', ordered_at)::date AS month, sum(total_amount_usd) AS revenue FROM orders GROUP BY 1 ORDER BY 1",
  );
  await expect(result.getByRole("figure", { name: "Line chart of revenue by month" })).toBeVisible();
  await expect(result.getByRole("table").getByRole("cell").nth(1)).toHaveText(/^\d{1,3}(,\d{3})*(\.\d{1,2})?$/);
});

test("the SQL editor, the conversations list and the verified examples page are axe clean", async ({ page }) => {
  await signIn(page);
  const result = await askForResult(page, "how many customers are there?");
  await result.getByRole("button", { name: "Edit SQL" }).click();
  await expect(result.getByRole("textbox", { name: "Edit the SQL" })).toBeVisible();
  await expectNoAxeViolations(page, "SQL editor");
  await page.getByRole("button", { name: "Right" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved as a verified example" })).toBeVisible();
  await page.goto("/examples");
  await expect(page.getByRole("heading", { name: "Verified examples", exact: true })).toBeVisible();
  await expect(page.getByRole("listitem").first()).toBeVisible();
  await expectNoAxeViolations(page, "verified examples");
  // Clean up: later specs (verified-examples-roles) expect no shared example for this question.
  const item = page.getByRole("listitem").filter({ hasText: "how many customers are there?" });
  await item.getByRole("button", { name: "Delete “how many customers are there?”" }).first().click();
  await page.getByRole("button", { name: "Yes, delete" }).click();
  await expect(page.getByRole("listitem").filter({ hasText: "how many customers are there?" })).toHaveCount(0);
});
