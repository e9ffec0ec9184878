import { expect, test } from "@playwright/test";
import { askForResult } from "./ask-question";
import { signIn } from "./sign-in";

/** The conversation list through a day: rename in a box as wide as the list, search later questions, safe delete. */

test("the rename box is as wide as the list, shows the whole title, and Enter saves it", async ({ page }) => {
  await signIn(page);
  const question = "how many customers are there?";
  await askForResult(page, question);
  const conversations = page.getByRole("navigation", { name: "Conversations" });
  const current = conversations.getByRole("listitem").filter({ has: page.locator('[aria-current="true"]') });
  await current.getByRole("button", { name: `Rename “${question}”` }).click();
  const box = conversations.getByLabel("New title");
  await expect(box).toBeFocused();
  const boxWidth = (await box.boundingBox())?.width ?? 0;
  const itemWidth = (await box.locator("xpath=ancestor::li[1]").boundingBox())?.width ?? 0;
  expect(boxWidth, "rename box width").toBeGreaterThanOrEqual(itemWidth * 0.9);
  // Not cut: the title's text fits in the box (its lines wrap).
  const fits = await box.evaluate((input) => {
    const sizes = input as unknown as { scrollHeight: number; clientHeight: number };
    return sizes.scrollHeight <= sizes.clientHeight;
  });
  expect(fits, "the whole title is visible").toBe(true);
  const title = `Customer count, long enough to wrap onto a second line ${Date.now()}`;
  await box.fill(title);
  await page.keyboard.press("Enter");
  await expect(box).toHaveCount(0);
  await expect(current.getByRole("button", { name: title, exact: true })).toBeVisible();
});

test("the history search finds a thread by a later question and says which question matched", async ({ page }) => {
  await signIn(page);
  await askForResult(page, "how many customers are there?");
  await askForResult(page, "which carriers deliver late most often?");
  const conversations = page.getByRole("navigation", { name: "Conversations" });
  const current = conversations.getByRole("listitem").filter({ has: page.locator('[aria-current="true"]') });
  await expect(current.getByRole("button", { name: "how many customers are there?", exact: true })).toBeVisible();
  // The list knows the second question once the server has recorded it.
  await page.reload();
  const search = conversations.getByRole("searchbox", { name: "Search conversations" });
  await search.fill("CARRIERS deliver");
  await expect(current.getByRole("button", { name: "how many customers are there?", exact: true })).toBeVisible();
  await expect(current).toContainText("Matching question: “which carriers deliver late most often?”");
  await search.fill("no conversation asks this");
  await expect(conversations.getByRole("status")).toHaveText("No conversation holds “no conversation asks this”.");
});

test("the delete confirmation has the focus on Keep, and Escape keeps the thread", async ({ page }) => {
  await signIn(page);
  const question = "how many customers are there?";
  await askForResult(page, question);
  const conversations = page.getByRole("navigation", { name: "Conversations" });
  const current = conversations.getByRole("listitem").filter({ has: page.locator('[aria-current="true"]') });
  const deleteButton = current.getByRole("button", { name: `Delete “${question}”` });
  await deleteButton.click();
  const confirmation = conversations.getByRole("group", { name: `Delete “${question}”?` });
  await expect(confirmation.getByRole("button", { name: "Keep" })).toBeFocused();
  // Escape from either button cancels, with the focus back on Delete.
  await page.keyboard.press("Escape");
  await expect(confirmation).toHaveCount(0);
  await expect(deleteButton).toBeFocused();
  await deleteButton.press("Enter");
  await confirmation.getByRole("button", { name: "Yes, delete" }).focus();
  await page.keyboard.press("Escape");
  await expect(confirmation).toHaveCount(0);
  await expect(page.locator(".turn-user")).toHaveText([question]);
  // Enter right after Delete keeps the thread too (the safe choice has the focus).
  await deleteButton.press("Enter");
  await page.keyboard.press("Enter");
  await expect(confirmation).toHaveCount(0);
  await expect(current.getByRole("button", { name: question, exact: true })).toBeVisible();
});
