import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { askForAnswer } from "./ask-question";
import { signIn } from "./sign-in";

// Issue 28: a pick of a reading is an answer choice, "Use this from now on" teaches. The demo's scripted model reads
// "which carriers deliver late most often?" two ways under the default preset (fixtures/demo-model.json): by the
// share of late deliveries (2 of 3 candidates, nlq's pick) and by their number (1 of 3).
const question = "which carriers deliver late most often?";

/** Fails with the violations' ids and targets when axe finds any on the page. */
async function expectNoAxeViolations(page: Page, state: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const violations = results.violations.map(
    (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
  );
  expect(violations, `axe violations in state "${state}"`).toEqual([]);
}

/** The question's verified examples the signed-in role may see, through the app's own API. */
async function examplesOf(page: Page): Promise<Array<{ question: string; label: string }>> {
  const response = await page.request.get("/api/verified-examples");
  expect(response.ok()).toBe(true);
  const { examples } = (await response.json()) as { examples: Array<{ question: string; label: string }> };
  return examples.filter((example) => example.question === question);
}

test("picking a reading saves nothing and says whose SQL it is; 'Use this from now on' saves it as picked", async ({
  page,
}) => {
  await signIn(page);
  const answer = await askForAnswer(page, question);
  const result = answer.getByRole("group", { name: "Result" });
  const readings = result.getByTestId("interpretations");
  await expect(readings).toContainText("The candidates read the question 2 ways");
  await expect(result.getByText(/^confidence 67%$/)).toBeVisible();
  await expectNoAxeViolations(page, "readings with 'Use this from now on'");

  // The pick: reading #2 runs as the role, is labelled as a candidate's SQL, and nothing is stored.
  await readings.getByRole("button", { name: /^#2 · 1 of 3 candidates/ }).click();
  const provenance = result.getByTestId("provenance");
  await expect(provenance).toContainText("reading #2");
  await expect(provenance).toContainText("a candidate's SQL (1 of 3 candidates), validated again and run read-only");
  await expect(provenance).not.toContainText("your edited SQL");
  await expect(result.locator(".sql-code")).toContainText("ORDER BY late_shipments DESC");
  await expect(result.getByRole("button", { name: "Save as verified example" })).toHaveCount(0);
  await expect(result.getByRole("status").filter({ hasText: /remembered/i })).toHaveCount(0);
  expect(await examplesOf(page)).toEqual([]);
  await expectNoAxeViolations(page, "a picked reading");

  // The confirmation: stored as picked from 2 readings (the superuser is an administrator: for every role).
  await readings.getByRole("button", { name: "Use this from now on: reading #2" }).click();
  await expect(result.getByRole("status").filter({ hasText: "Remembered for every role" })).toBeVisible();
  expect(await examplesOf(page)).toEqual([expect.objectContaining({ label: "picked from 2 readings by you" })]);

  // /examples says so, and Delete asks first: Escape and "Keep it" keep it, "Yes, delete" removes it.
  await page.goto("/examples");
  const item = page.getByRole("listitem").filter({ hasText: question });
  await expect(item).toContainText("picked from 2 readings by you");
  await expect(item).toContainText("ORDER BY late_shipments DESC");
  await item.getByRole("button", { name: `Delete “${question}”` }).click();
  await expect(item.getByRole("button", { name: "Keep it" })).toBeFocused();
  await expectNoAxeViolations(page, "deleting an example asks first");
  await page.keyboard.press("Escape");
  await expect(item.getByRole("button", { name: "Yes, delete" })).toHaveCount(0);
  await expect(item).toBeVisible();
  await item.getByRole("button", { name: `Delete “${question}”` }).click();
  await item.getByRole("button", { name: "Yes, delete" }).click();
  await expect(page.getByRole("listitem").filter({ hasText: question })).toHaveCount(0);

  // Clean up the conversation, so later specs of this role start from the list they expect.
  const listed = await page.request.get("/api/threads");
  const { threads } = (await listed.json()) as { threads: Array<{ id: string; title: string }> };
  for (const thread of threads.filter((each) => each.title === question)) {
    expect((await page.request.delete(`/api/threads/${thread.id}`)).ok()).toBe(true);
  }
});
