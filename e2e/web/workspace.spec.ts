import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { askForResult, runEditedSql } from "./ask-question";
import { signIn } from "./sign-in";

test("edits the SQL, re-runs it as the role, pages past the row cap, exports the full CSV and saves the correction", async ({
  page,
}) => {
  await signIn(page);
  const result = await askForResult(page, "how many customers are there?");
  await expect(result.getByTestId("row-count")).toHaveText("1 row");

  await runEditedSql(page, result, "SELECT customer_id, city FROM customers ORDER BY customer_id");
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
  await page.getByRole("button", { name: "Yes, delete" }).click();
  await expect(page.getByRole("listitem").filter({ hasText: "how many customers are there?" })).toHaveCount(0);
});

test("refuses edited SQL that writes, with its SQLSTATE, and keeps the answer", async ({ page }) => {
  await signIn(page);
  const result = await askForResult(page, "how many customers are there?");
  await runEditedSql(page, result, "DELETE FROM customers");
  await expect(result.getByRole("alert")).toContainText("SQLSTATE");
  await expect(result.getByTestId("row-count")).toHaveText("1 row");
  // Still one answer, and the customers are all there.
  await page.getByRole("button", { name: "Cancel", exact: true }).click();
  await runEditedSql(page, result, "SELECT count(*) FROM customers");
  await expect(result.getByRole("table").getByRole("cell").first()).toHaveText("1,500");
});
