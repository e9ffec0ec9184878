import { expect, test } from "@playwright/test";

test("asks a question and sees the steps, the SQL, the rows and the scripted label", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: /nlq/ })).toBeVisible();
  await expect(page.getByRole("list", { name: "Suggested questions" })).toBeVisible();

  const input = page.getByLabel("Your question");
  await input.fill("how many customers are there?");
  await input.press("Enter");

  const turn = page.getByRole("article", { name: "Answer" }).last();
  const steps = turn.getByRole("list", { name: "Pipeline steps" });
  await expect(steps.getByRole("listitem").first()).toBeVisible();

  const result = turn.getByRole("region", { name: "Result" });
  await expect(result).toBeVisible({ timeout: 45_000 });
  await expect(steps.locator('[data-status="done"]').first()).toBeVisible();
  await expect(result.getByText("scripted replay — not a language model")).toBeVisible();
  await expect(result.locator(".sql-code")).toContainText(/select\s+count\(\*\)/i);
  await expect(result.getByTestId("row-count")).toHaveText("1 row");
  const table = result.getByRole("table");
  await expect(table.getByRole("columnheader")).toHaveText(["customers"]);
  await expect(table.getByRole("cell").first()).toHaveText(/^[1-9]\d*$/);

  await page.screenshot({ path: "/tmp/nlq-web.png", fullPage: true });
});
