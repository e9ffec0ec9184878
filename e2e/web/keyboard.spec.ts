import { expect, test } from "@playwright/test";
import { signIn } from "./sign-in";

/** Keyboard use: the question box has the focus on arrival, a skip link, "/" to come back, Escape to stop. */

test("the question box is focused on arrival, reachable by a skip link and by /", async ({ page }) => {
  await signIn(page);
  const box = page.getByLabel("Your question");
  await expect(box).toBeFocused();

  // From the top of the page, the first Tab reaches the skip link, which leads to the question box.
  // (A click on the page's top-left corner moves the keyboard's starting point to the start of the document.)
  await page.mouse.click(2, 2);
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to the question box" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press("Enter");
  await expect(box).toBeFocused();

  // "/" anywhere outside a text field comes back to the box, without typing a slash.
  await page.getByRole("heading", { level: 1 }).click();
  await expect(box).not.toBeFocused();
  await page.keyboard.press("/");
  await expect(box).toBeFocused();
  await expect(box).toHaveValue("");
  // In a text field "/" is just a character.
  await page.keyboard.type("a/b");
  await expect(box).toHaveValue("a/b");
});

test("Escape stops a question that is still being answered", async ({ page }) => {
  await signIn(page);
  // A request that never answers.
  await page.route("**/api/chat", () => undefined);
  await page.getByLabel("Your question").fill("how many customers are there?");
  await page.getByLabel("Your question").press("Enter");
  await expect(page.getByRole("button", { name: "Stop" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByText("Stopped", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Ask" })).toBeVisible();
  await expect(page.getByText("Working…")).toHaveCount(0);
});

test("the sign-in page has a skip link to the form", async ({ page }) => {
  await page.goto("/");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to sign-in" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByLabel("PostgreSQL user")).toBeFocused();
});

test("Enter on Edit SQL puts the keyboard in the SQL editor", async ({ page }) => {
  await signIn(page);
  await page.getByLabel("Your question").fill("how many customers are there?");
  await page.getByLabel("Your question").press("Enter");
  const result = page.getByRole("article", { name: "Answer" }).last().getByRole("group", { name: "Result" });
  await expect(result.getByTestId("row-count")).toBeVisible({ timeout: 45_000 });
  await result.getByRole("button", { name: "Edit SQL" }).focus();
  await page.keyboard.press("Enter");
  const editor = result.getByRole("textbox", { name: "Edit the SQL" });
  await expect(editor).toBeFocused();
  // Typing goes into the SQL, not the page.
  await page.keyboard.press("End");
  await page.keyboard.type(" -- edited");
  await expect(editor).toContainText("-- edited");
});
