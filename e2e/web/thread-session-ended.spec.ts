import { expect, test } from "@playwright/test";
import { askForResult, submitQuestion } from "./ask-question";
import { e2eSuperuserPassword } from "./e2e-database";
import { signIn } from "./sign-in";

/** A question asked just as the session ended comes back after signing in again, inside a reopened thread too. */

test("a question asked in an existing thread after the session ended is back in the box, in that thread", async ({
  page,
}) => {
  await signIn(page);
  await askForResult(page, "how many customers are there?");
  await expect(page).toHaveURL(/\?thread=[0-9a-f-]{36}$/);
  const threadUrl = page.url();

  // Signed out in another tab.
  const other = await page.context().newPage();
  await other.goto("/");
  await other.getByRole("button", { name: "Sign out" }).click();
  await expect(other.getByRole("heading", { name: "Sign in with your database role" })).toBeVisible();
  await other.close();

  await submitQuestion(page, "which customers are from Berlin?");
  await expect(page.getByRole("heading", { name: "Sign in with your database role" })).toBeVisible();
  await expect(page.getByRole("alert").filter({ hasText: "Your session has ended" })).toBeVisible();
  expect(page.url()).toBe(threadUrl);

  // Signing in again where the page is: the form reloads the same address.
  await page.getByLabel("PostgreSQL user").fill("postgres");
  await page.getByLabel("Password").fill(e2eSuperuserPassword);
  await page.getByRole("button", { name: "Sign in" }).click();
  // The thread is reopened with its answer, and the unsent question waits in the box.
  await expect(page.locator(".turn-user")).toHaveText(["how many customers are there?"]);
  await expect(page.getByLabel("Your question")).toHaveValue("which customers are from Berlin?");
  await expect(page.getByLabel("Your question")).toBeFocused();
  expect(page.url()).toBe(threadUrl);
});
