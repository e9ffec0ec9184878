import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { signIn } from "./sign-in";

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

test("asks a question and sees the steps, the sentence, the SQL, the rows and the scripted labels", async ({
  page,
}) => {
  await expect(page.getByRole("heading", { name: /nlq/ })).toBeVisible();
  await expect(page.getByRole("list", { name: "Suggested questions" })).toBeVisible();

  const input = page.getByLabel("Your question");
  await input.fill("how many customers are there?");
  await input.press("Enter");

  const turn = page.getByRole("article", { name: "Answer" }).last();
  const steps = turn.getByRole("list", { name: "Pipeline steps" });
  await expect(steps.getByRole("listitem").first()).toBeVisible();

  const result = turn.getByRole("group", { name: "Result" });
  await expect(result).toBeVisible({ timeout: 45_000 });
  await expect(steps.locator('[data-status="done"]').first()).toBeVisible();
  await expect(result.getByText("scripted replay — not a language model")).toBeVisible();
  await expect(result.locator(".sql-code")).toContainText(/select\s+count\(\*\)/i);
  await expect(result.getByTestId("row-count")).toHaveText("1 row");
  const table = result.getByRole("table");
  await expect(table.getByRole("columnheader")).toHaveText(["customers"]);
  await expect(table.getByRole("cell").first()).toHaveText(/^[1-9][\d,]*$/);

  // The plain-language sentence (summarize-answer, on in the default balanced preset), labelled as a scripted replay.
  const sentence = result.getByTestId("answer-sentence");
  await expect(sentence).toContainText("Hearth & Harbor has 1,500 customers.");
  await expect(sentence.getByText("scripted replay", { exact: true })).toBeVisible();
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((violation) => violation.id)).toEqual([]);

  await page.screenshot({ path: "/tmp/nlq-web.png", fullPage: true });
});

test("keeps earlier turns, charts a time series and shows an unanswerable question with its SQLSTATE", async ({
  page,
}) => {
  const suggestions = page.getByRole("list", { name: "Suggested questions" });
  await suggestions.getByRole("button", { name: "show the monthly revenue trend over the last 12 months" }).click();

  const answers = page.getByRole("article", { name: "Answer" });
  const trend = answers.nth(0).getByRole("group", { name: "Result" });
  await expect(trend).toBeVisible({ timeout: 45_000 });
  // The question asks for revenue: its line alone (the order count can be added with the column picker).
  await expect(trend.getByRole("figure", { name: /^Line chart of revenue_usd by month$/ })).toBeVisible();
  await expect(trend.locator(".recharts-line")).toHaveCount(1);
  await expect(trend.getByRole("table").getByRole("columnheader")).toHaveText(["month", "orders", "revenue_usd"]);

  const input = page.getByLabel("Your question");
  await input.fill("what is the bounce rate of our website?");
  await page.getByRole("button", { name: "Ask" }).click();
  const failure = answers.nth(1).getByRole("alert");
  await expect(failure).toContainText("SQLSTATE 22023", { timeout: 45_000 });
  await expect(failure).toContainText("cannot be answered");

  // The first answer is still on the page, above the second turn.
  await expect(answers).toHaveCount(2);
  await expect(trend.getByRole("table")).toBeVisible();
  await expect(page.locator(".turn-user")).toHaveText([
    "show the monthly revenue trend over the last 12 months",
    "what is the bounce rate of our website?",
  ]);
  await page.screenshot({ path: "/tmp/nlq-web-turns.png", fullPage: true });
});
