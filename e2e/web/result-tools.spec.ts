import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { submitQuestion } from "./ask-question";
import { signIn } from "./sign-in";

/** The result table sorts and filters the loaded rows; a chart downloads as a PNG image. */

test("sorting by a header and filtering the rows, then downloading the chart as PNG", async ({ page }) => {
  await signIn(page);
  await submitQuestion(page, "what is the average order value by store?");
  const result = page.getByRole("article", { name: "Answer" }).last().getByRole("group", { name: "Result" });
  const table = result.getByRole("table");
  await expect(table).toBeVisible({ timeout: 45_000 });
  const storeCells = table.locator("tbody tr td:first-child");
  const orderCells = table.locator("tbody tr td:nth-child(3)");

  // Sort by orders: ascending, then descending (numbers as numbers, not text).
  const ordersHeader = table.getByRole("columnheader", { name: "orders" });
  await ordersHeader.getByRole("button").click();
  await expect(ordersHeader).toHaveAttribute("aria-sort", "ascending");
  const ascending = (await orderCells.allTextContents()).map((text) => Number(text.replace(/,/g, "")));
  expect(ascending).toEqual([...ascending].sort((a, b) => a - b));
  await ordersHeader.getByRole("button").click();
  await expect(ordersHeader).toHaveAttribute("aria-sort", "descending");
  const descending = (await orderCells.allTextContents()).map((text) => Number(text.replace(/,/g, "")));
  expect(descending).toEqual([...descending].sort((a, b) => b - a));

  // Filter: only the online stores.
  await result.getByLabel("Filter rows").fill("online");
  await expect(result.getByTestId("filter-count")).toHaveText(/^\d+ match(es)? the filter$/);
  expect(await storeCells.count()).toBeGreaterThan(0);
  for (const row of await table.locator("tbody tr").all()) await expect(row).toContainText(/online/i);

  // The chart as an image.
  const downloading = page.waitForEvent("download");
  await result.getByRole("button", { name: "Download PNG" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe("nlq-what-is-the-average-order-value-by-store.png");
  const bytes = readFileSync(await download.path());
  expect(bytes.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
  expect(bytes.length).toBeGreaterThan(2_000);
  // The image holds more than the chart: the question as its title, the measures, the legend (IHDR: width, height
  // at twice the size on screen).
  const surface = await result.locator(".chart-area svg.recharts-surface").boundingBox();
  expect(bytes.readUInt32BE(16)).toBe(Math.round(surface!.width) * 2);
  expect(bytes.readUInt32BE(20)).toBeGreaterThanOrEqual((Math.round(surface!.height) + 60) * 2);

  // The CSV is named from the question too.
  const csv = page.waitForEvent("download");
  await result.getByRole("button", { name: "Download CSV" }).click();
  expect((await csv).suggestedFilename()).toBe("nlq-what-is-the-average-order-value-by-store.csv");
});

test("the latest answer offers follow-up questions it can answer; picking one asks it", async ({ page }) => {
  await signIn(page);
  const asked = "what is the average order value by store?";
  await submitQuestion(page, asked);
  const turns = page.getByRole("article", { name: "Answer" });
  const followUps = turns.last().getByRole("list", { name: "Follow-up questions" });
  await expect(followUps).toBeVisible({ timeout: 45_000 });
  const offered = await followUps.getByRole("button").allTextContents();
  expect(offered.length).toBeGreaterThan(0);
  expect(offered.length).toBeLessThanOrEqual(3);
  expect(offered).not.toContain(asked);

  await followUps.getByRole("button").first().click();
  await expect(page.locator(".turn-user").last()).toHaveText(offered[0] ?? "");
  await expect(turns).toHaveCount(2);
  // The scripted demo offers only recorded questions: the follow-up is answered, not refused.
  await expect(turns.last().getByRole("group", { name: "Result" })).toBeVisible({ timeout: 45_000 });
  // Only the latest answer carries follow-ups.
  await expect(page.getByRole("list", { name: "Follow-up questions" })).toHaveCount(1);

  // An answered question can be put back into the box, reworded and asked again.
  await turns.first().getByRole("button", { name: "Edit the question" }).click();
  await expect(page.getByLabel("Your question")).toHaveValue(asked);
  await expect(page.getByLabel("Your question")).toBeFocused();
});
