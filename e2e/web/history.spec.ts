import { expect, test } from "@playwright/test";
import { askForResult, submitQuestion } from "./ask-question";
import { signIn } from "./sign-in";

test("keeps the conversation in a thread that survives a reload, can be renamed, taught and deleted", async ({
  page,
}) => {
  await signIn(page);
  const conversations = page.getByRole("navigation", { name: "Conversations" });
  await expect(conversations.getByRole("button", { name: "New conversation" })).toBeVisible();

  const question = "how many customers are there?";
  const result = await askForResult(page, question);
  const count = await result.getByRole("table").getByRole("cell").first().textContent();
  // Earlier tests of this role may have left threads with the same title: this one is the current one.
  const current = conversations.getByRole("listitem").filter({ has: page.locator('[aria-current="true"]') });
  await expect(current.getByRole("button", { name: question, exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\?thread=[0-9a-f-]{36}$/);

  // Thumbs up: the pair becomes a verified example.
  await page.getByRole("button", { name: "Right" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved as a verified example" })).toBeVisible();

  // A reload reopens the thread: question, SQL, rows and the feedback are back.
  await page.reload();
  const reopened = page.getByRole("article", { name: "Answer" });
  await expect(reopened).toHaveCount(1);
  await expect(page.locator(".turn-user")).toHaveText([question]);
  await expect(reopened.getByRole("group", { name: "Result" }).getByRole("table").getByRole("cell").first()).toHaveText(
    count ?? "",
  );
  await expect(page.getByRole("button", { name: "Right" })).toHaveAttribute("aria-pressed", "true");
  // Taking the thumbs-up back retracts the example (later tests of this role expect none for this question).
  await page.getByRole("button", { name: "Right" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Removed from the verified examples" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Right" })).toHaveAttribute("aria-pressed", "false");

  // A follow-up in the reopened thread stays in it.
  await submitQuestion(page, "which customers are from Berlin?");
  await expect(page.getByRole("article", { name: "Answer" }).nth(1).getByRole("group", { name: "Result" })).toBeVisible(
    {
      timeout: 45_000,
    },
  );
  await page.reload();
  await expect(page.locator(".turn-user")).toHaveText([question, "which customers are from Berlin?"]);

  // Rename, then start a new conversation and reopen the renamed one from the list.
  const title = `Customer counts ${Date.now()}`;
  // Escape cancels a rename and gives the focus back to its button; the title box has the focus while renaming.
  const renameButton = current.getByRole("button", { name: `Rename “${question}”` });
  await renameButton.click();
  await expect(conversations.getByLabel("New title")).toBeFocused();
  await page.keyboard.type("not kept");
  await page.keyboard.press("Escape");
  await expect(conversations.getByLabel("New title")).toHaveCount(0);
  await expect(renameButton).toBeFocused();
  await expect(current.getByRole("button", { name: question, exact: true })).toBeVisible();
  await renameButton.click();
  await conversations.getByLabel("New title").fill(title);
  await page.keyboard.press("Enter");
  await expect(conversations.getByRole("button", { name: title, exact: true })).toBeVisible();
  // Search the list by title.
  const search = conversations.getByRole("searchbox", { name: "Search conversations" });
  await search.fill(title.slice(0, 12).toUpperCase());
  await expect(conversations.getByRole("button", { name: title, exact: true })).toBeVisible();
  await expect(
    conversations.getByRole("button", { name: "which customers are from Berlin?", exact: true }),
  ).toHaveCount(0);
  await search.fill("no such conversation title");
  await expect(conversations.getByRole("status")).toContainText("No conversation holds");
  await search.fill("");
  await conversations.getByRole("button", { name: "New conversation" }).click();
  await expect(page.locator(".turn-user")).toHaveCount(0);
  await conversations.getByRole("button", { name: title, exact: true }).click();
  await expect(page.locator(".turn-user")).toHaveCount(2);

  // Delete asks first: "Keep" keeps it, "Yes, delete" deletes it: gone from the list and from the page.
  await conversations.getByRole("button", { name: `Delete “${title}”` }).click();
  const confirmation = conversations.getByRole("group", { name: `Delete “${title}”?` });
  await expect(confirmation.getByRole("button", { name: "Keep" })).toBeFocused();
  await confirmation.getByRole("button", { name: "Keep" }).click();
  await expect(conversations.getByRole("button", { name: title, exact: true })).toBeVisible();
  await expect(page.locator(".turn-user")).toHaveCount(2);
  await conversations.getByRole("button", { name: `Delete “${title}”` }).click();
  await confirmation.getByRole("button", { name: "Yes, delete" }).click();
  await expect(conversations.getByRole("button", { name: title, exact: true })).toHaveCount(0);
  await expect(page.locator(".turn-user")).toHaveCount(0);
  await page.screenshot({ path: "/tmp/nlq-web-history.png", fullPage: true });
});
