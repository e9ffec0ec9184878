import { expect, type Page, test } from "@playwright/test";
import { askForAnswer } from "./ask-question";
import { signIn } from "./sign-in";

// Feedback that teaches, proven through the browser. The scripted demo model (fixtures/demo-model.json) answers
// "how many cancelled orders were there in 2025?" in two ways: with extract(year …) and an unnamed count, or — only
// when the generation prompt contains the verified pair "Question: how many orders were cancelled in 2025?\nSQL:\n
// SELECT count(*) AS cancelled_orders…" (its `promptContains` condition) — in that pair's style, a date range and a
// column named cancelled_orders. So the column the browser shows says whether the thumbs-up reached the prompt.
const taught = "how many orders were cancelled in 2025?";
const similar = "how many cancelled orders were there in 2025?";

/** Asks in a new conversation and returns the answer's article once its result is shown. */
async function askInNewConversation(page: Page, question: string) {
  await page
    .getByRole("navigation", { name: "Conversations" })
    .getByRole("button", { name: "New conversation" })
    .click();
  await expect(page.locator(".turn-user")).toHaveCount(0);
  return askForAnswer(page, question);
}

test("a thumbs-up makes the pair a verified example that the next similar question's prompt contains", async ({
  page,
}) => {
  await signIn(page);

  // Before any feedback: the similar question is answered without the example.
  let answer = await askInNewConversation(page, similar);
  let result = answer.getByRole("group", { name: "Result" });
  await expect(result.getByText("scripted replay — not a language model")).toBeVisible();
  await expect(result.getByRole("table").getByRole("columnheader")).toHaveText(["count"]);
  await expect(result.locator(".sql-code")).toContainText("extract(year FROM ordered_at) = 2025");
  const count = await result.getByRole("table").getByRole("cell").first().textContent();
  expect(count).toMatch(/^[1-9][\d,]*$/);

  // Thumbs up on the other question: its question and SQL become a verified example of this data source.
  answer = await askInNewConversation(page, taught);
  await expect(answer.locator(".sql-code")).toContainText("AS cancelled_orders");
  await answer.getByRole("button", { name: "Right" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved as a verified example" })).toBeVisible();

  // The similar question again, in a fresh conversation (no earlier turns in its prompt): the scripted model
  // answered from the entry that requires the verified pair in the prompt.
  answer = await askInNewConversation(page, similar);
  result = answer.getByRole("group", { name: "Result" });
  await expect(result.getByRole("table").getByRole("columnheader")).toHaveText(["cancelled_orders"]);
  await expect(result.locator(".sql-code")).toContainText("ordered_at >= '2025-01-01' AND ordered_at < '2026-01-01'");
  await expect(result.getByRole("table").getByRole("cell").first()).toHaveText(count ?? "");
  await page.screenshot({ path: "/tmp/nlq-web-verified-example.png", fullPage: true });

  // Clean up: the admin view lists the example with who accepted it; delete it.
  await page.goto("/examples");
  const item = page.getByRole("listitem").filter({ hasText: taught });
  await expect(item).toContainText("SELECT count(*) AS cancelled_orders");
  await item.getByRole("button", { name: `Delete “${taught}”` }).click();
  await page.getByRole("button", { name: "Yes, delete" }).click();
  await expect(page.getByRole("listitem").filter({ hasText: taught })).toHaveCount(0);

  // And its three conversations, so later tests of this role start from the list they expect.
  await page.goto("/");
  const conversations = page.getByRole("navigation", { name: "Conversations" });
  await expect(conversations.getByRole("button", { name: `Delete “${taught}”` })).toHaveCount(1);
  for (const title of [similar, taught, similar]) {
    const remaining = await conversations.getByRole("button", { name: `Delete “${title}”` }).count();
    await conversations
      .getByRole("button", { name: `Delete “${title}”` })
      .first()
      .click();
    await conversations.getByRole("button", { name: "Yes, delete" }).click();
    await expect(conversations.getByRole("button", { name: `Delete “${title}”` })).toHaveCount(remaining - 1);
  }
});
