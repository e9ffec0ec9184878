import { expect, test } from "@playwright/test";
import { submitQuestion } from "./ask-question";
import { signIn } from "./sign-in";

/** Errors say what happened: the length limit, an ended session, a question the scripted demo has no answer for. */

test("a question over the length limit is counted against the limit and not sent; the server says the limit too", async ({
  page,
}) => {
  await signIn(page);
  const box = page.getByLabel("Your question");
  await box.fill("x".repeat(5_000));
  const counter = page.getByTestId("question-length");
  await expect(counter).toContainText("5,000 / 4,000 characters: 1,000 too many");
  await expect(page.getByRole("button", { name: "Ask" })).toBeDisabled();
  await box.press("Enter");
  await expect(page.getByRole("article", { name: "Answer" })).toHaveCount(0);
  await expect(page.getByText(/did not answer|connection is back/)).toHaveCount(0);
  await box.fill("how many customers are there?");
  await expect(counter).toHaveCount(0);

  // The server's own refusal (a client that skips the counter) carries the limit in words.
  const refusal = await page.evaluate(async () => {
    const response = await fetch("/api/chat", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ role: "user", parts: [{ type: "text", text: "y".repeat(5_000) }] }] }),
    });
    return { status: response.status, body: (await response.json()) as { error: { message: string } } };
  });
  expect(refusal.status).toBe(400);
  expect(refusal.body.error).toMatchObject({ code: "54000", reason: "too-long", limit: 4000, length: 5000 });
  expect(refusal.body.error.message).toContain("the limit is 4,000");
});

test("asking after the session ended elsewhere goes back to sign-in, updates the header and keeps the question", async ({
  page,
}) => {
  await signIn(page);
  // Signed out in another tab.
  const other = await page.context().newPage();
  await other.goto("/");
  await other.getByRole("button", { name: "Sign out" }).click();
  await expect(other.getByRole("heading", { name: "Sign in with your database role" })).toBeVisible();
  await other.close();

  await submitQuestion(page, "how many customers are there?");
  await expect(page.getByRole("heading", { name: "Sign in with your database role" })).toBeVisible();
  await expect(page.getByRole("alert").filter({ hasText: "Your session has ended" })).toBeVisible();
  await expect(page.getByTestId("signed-in-role")).toHaveCount(0);
  await expect(page.getByText(/did not answer|connection is back/)).toHaveCount(0);

  await signIn(page);
  await expect(page.getByLabel("Your question")).toHaveValue("how many customers are there?");
});

test("a question the scripted demo has no answer for lists the recorded questions, with no Retry and no internals", async ({
  page,
}) => {
  await signIn(page);
  await submitQuestion(page, "what is the meaning of life?");
  const turn = page.getByRole("article", { name: "Answer" }).last();
  const alert = turn.getByRole("alert");
  await expect(alert).toContainText("No recorded answer for this question", { timeout: 45_000 });
  await expect(alert).not.toContainText(/step|extract-keywords|generate-candidate|language model call failed/i);
  // No server path anywhere on the page, tooltips included.
  expect(await page.content()).not.toMatch(/\/(work|home|tmp|usr|srv)\/[\w./-]*demo-model\.json/);
  await expect(turn.getByRole("button", { name: "Retry" })).toHaveCount(0);
  await expect(turn.getByRole("button", { name: "Rephrase" })).toBeVisible();
  const recorded = alert.getByRole("list", { name: "Recorded questions" });
  await expect(recorded.getByRole("button")).not.toHaveCount(0);
  expect(await recorded.getByRole("button").count()).toBeGreaterThan(6);
  await recorded.getByRole("button", { name: "how many customers are there?" }).click();
  const answer = page.getByRole("article", { name: "Answer" }).last().getByRole("group", { name: "Result" });
  await expect(answer.getByTestId("row-count")).toHaveText("1 row", { timeout: 45_000 });
});
