import { expect, type Page, test } from "@playwright/test";
import { askForAnswer, replaceEditedSql } from "./ask-question";
import { signIn } from "./sign-in";

/** Edited SQL gets its own provenance, runs with Ctrl+Enter, and can be saved under a reworded question. */

async function editWithCtrlEnter(page: Page, sql: string) {
  const result = page.getByRole("article", { name: "Answer" }).last().getByRole("group", { name: "Result" });
  const editor = await replaceEditedSql(page, result, sql);
  // Ctrl+Enter runs the edit (it used to insert a blank line).
  await page.keyboard.press("Control+Enter");
  await expect(editor).toHaveCount(0);
  return result;
}

test("edited SQL shows its own provenance, not the model's confidence, candidates or reasoning", async ({ page }) => {
  await signIn(page);
  const turn = await askForAnswer(page, "what is the average order value by store?");
  const result = turn.getByRole("group", { name: "Result" });
  const provenance = result.getByTestId("provenance");
  await expect(provenance).toContainText(/confidence \d+%/);
  await expect(provenance).toContainText("candidates");
  await expect(result.locator(".explanation")).toHaveCount(1);

  await editWithCtrlEnter(
    page,
    "SELECT s.name AS store, count(*) AS orders FROM orders o JOIN stores s USING (store_id) GROUP BY 1 ORDER BY 1",
  );
  await expect(result.getByRole("table").getByRole("columnheader")).toHaveText(["store", "orders"]);
  await expect(provenance).toContainText("your edited SQL");
  await expect(provenance).not.toContainText(/confidence|candidate|answered in/);
  await expect(result.locator(".explanation")).toHaveCount(0);
  await expect(result.getByTestId("answer-sentence")).toHaveCount(0);
  // The chart follows the edited columns, not the question asked.
  await expect(result.getByRole("figure", { name: "Bar chart of orders by store" })).toBeVisible();

  await result.getByRole("button", { name: "Back to nlq's answer" }).click();
  await expect(provenance).toContainText(/confidence \d+%/);
  await expect(result.getByRole("table").getByRole("columnheader")).toHaveText([
    "store",
    "channel",
    "orders",
    "average_order_value_usd",
  ]);
});

test("edited SQL is saved as a verified example under a reworded question; thumbs down points to Edit SQL above", async ({
  page,
}) => {
  await signIn(page);
  test.skip(
    (await page.getByRole("navigation", { name: "Conversations" }).count()) === 0,
    "verified examples need the metadata store (launcher mode)",
  );
  const turn = await askForAnswer(page, "how many customers are there?");
  await turn.getByRole("button", { name: "Wrong" }).click();
  await expect(turn.getByRole("status").filter({ hasText: "Edit SQL” above" })).toBeVisible();

  const reworded = "how many customers live in Berlin (e2e reworded)?";
  const result = await editWithCtrlEnter(page, "SELECT count(*) AS customers FROM customers WHERE city = 'Berlin'");
  await result.getByRole("button", { name: "Save as verified example" }).click();
  const question = result.getByRole("textbox", { name: "Question this SQL answers" });
  await expect(question).toHaveValue("how many customers are there?");
  await expect(question).toBeFocused();
  await question.fill(reworded);
  await result.getByRole("button", { name: "Save example" }).click();
  await expect(
    result.getByRole("status").filter({ hasText: `Saved as a verified example for “${reworded}”` }),
  ).toBeVisible();

  await page.goto("/examples");
  const item = page.getByRole("listitem").filter({ hasText: reworded });
  await expect(item).toContainText("WHERE city = 'Berlin'");
  await item.getByRole("button", { name: `Delete “${reworded}”` }).click();
  await page.getByRole("button", { name: "Yes, delete" }).click();
  await expect(page.getByRole("listitem").filter({ hasText: reworded })).toHaveCount(0);
});
