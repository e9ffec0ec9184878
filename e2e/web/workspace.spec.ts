import { readFileSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { signIn } from "./sign-in";

async function ask(page: Page, question: string) {
  await page.getByLabel("Your question").fill(question);
  await page.getByLabel("Your question").press("Enter");
  const result = page.getByRole("article", { name: "Answer" }).last().getByRole("group", { name: "Result" });
  await expect(result).toBeVisible({ timeout: 45_000 });
  return result;
}

async function replaceSql(page: Page, result: ReturnType<Page["getByRole"]>, sql: string) {
  await result.getByRole("button", { name: "Edit SQL" }).click();
  const editor = result.getByRole("textbox", { name: "Edit the SQL" });
  await editor.click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.press("Delete");
  await page.keyboard.insertText(sql);
  await result.getByRole("button", { name: "Run read-only" }).click();
}

test("edits the SQL, re-runs it as the role, pages past the row cap, exports the full CSV and saves the correction", async ({
  page,
}) => {
  await signIn(page);
  const result = await ask(page, "how many customers are there?");
  await expect(result.getByTestId("row-count")).toHaveText("1 row");

  await replaceSql(page, result, "SELECT customer_id, city FROM customers ORDER BY customer_id");
  await expect(result.getByText("your edited SQL")).toBeVisible();
  await expect(result.getByTestId("row-count")).toHaveText("1000 rows of 1500");
  await expect(result.locator(".sql-code")).toContainText("SELECT customer_id, city FROM customers");
  await result.getByRole("button", { name: "Load more rows" }).click();
  await expect(result.getByTestId("row-count")).toHaveText("1500 rows");
  await expect(result.getByRole("button", { name: "Load more rows" })).toHaveCount(0);

  const downloading = page.waitForEvent("download");
  await result.getByRole("button", { name: "Download CSV" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe("nlq-result.csv");
  const lines = readFileSync(await download.path(), "utf8").split("\r\n");
  expect(lines[0]).toBe("customer_id,city");
  expect(lines.filter((line) => line !== "")).toHaveLength(1501);

  await result.getByRole("button", { name: "Save as verified example" }).click();
  await result.getByRole("button", { name: "Save example" }).click();
  await expect(result.getByRole("status").filter({ hasText: "Saved as a verified example" })).toBeVisible();

  // The admin view lists it; the superuser may delete it.
  await page.goto("/examples");
  const item = page.getByRole("listitem").filter({ hasText: "how many customers are there?" });
  await expect(item).toContainText("SELECT customer_id, city FROM customers ORDER BY customer_id");
  await expect(item).toContainText(/corrected by (you|postgres)/);
  await item.getByRole("button", { name: "Delete “how many customers are there?”" }).click();
  await expect(page.getByRole("listitem").filter({ hasText: "how many customers are there?" })).toHaveCount(0);
});

test("refuses edited SQL that writes, with its SQLSTATE, and keeps the answer", async ({ page }) => {
  await signIn(page);
  const result = await ask(page, "how many customers are there?");
  await replaceSql(page, result, "DELETE FROM customers");
  await expect(result.getByRole("alert")).toContainText("SQLSTATE");
  await expect(result.getByTestId("row-count")).toHaveText("1 row");
  // Still one answer, and the customers are all there.
  await page.getByRole("button", { name: "Cancel", exact: true }).click();
  await replaceSql(page, result, "SELECT count(*) FROM customers");
  await expect(result.getByRole("table").getByRole("cell").first()).toHaveText("1,500");
});
