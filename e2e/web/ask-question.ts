import { expect, type Locator, type Page } from "@playwright/test";

/** How long a question may take to be answered in the e2e runs (scripted model, one PostgreSQL). */
const answerTimeoutMilliseconds = 45_000;

/** Types a question into the question box and sends it with Enter; waits for nothing. */
export async function submitQuestion(page: Page, question: string): Promise<void> {
  await page.getByLabel("Your question").fill(question);
  await page.getByLabel("Your question").press("Enter");
}

/** Asks a question and waits for its result: the last answer turn, once its "Result" group is shown. */
export async function askForAnswer(page: Page, question: string): Promise<Locator> {
  await submitQuestion(page, question);
  const answer = page.getByRole("article", { name: "Answer" }).last();
  await expect(answer.getByRole("group", { name: "Result" })).toBeVisible({ timeout: answerTimeoutMilliseconds });
  return answer;
}

/** Asks a question and returns the "Result" group of its answer, once shown. */
export async function askForResult(page: Page, question: string): Promise<Locator> {
  return (await askForAnswer(page, question)).getByRole("group", { name: "Result" });
}

/**
 * Opens a result's SQL editor and replaces its text with `sql`, without running it (the caller clicks "Run read-only"
 * or presses Ctrl+Enter). Returns the editor.
 */
export async function replaceEditedSql(page: Page, result: Locator, sql: string): Promise<Locator> {
  await result.getByRole("button", { name: "Edit SQL" }).click();
  const editor = result.getByRole("textbox", { name: "Edit the SQL" });
  await editor.click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.press("Delete");
  await page.keyboard.insertText(sql);
  return editor;
}

/** Replaces a result's SQL with `sql` and runs it with the "Run read-only" button. */
export async function runEditedSql(page: Page, result: Locator, sql: string): Promise<void> {
  await replaceEditedSql(page, result, sql);
  await result.getByRole("button", { name: "Run read-only" }).click();
}
