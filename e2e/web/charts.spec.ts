import { expect, type Locator, test } from "@playwright/test";
import { askForResult } from "./ask-question";
import { signIn } from "./sign-in";

/**
 * Charts plot what the question asks for: the asserted things are the drawn series, the axes and their labels (the
 * SVG recharts draws), not only that a chart exists.
 */

/**
 * The texts of an axis's tick labels (`xAxis` or `yAxis`), and whether any two of them overlap on screen: level labels
 * by their boxes, slanted (45°) labels by the distance between neighbouring baselines, which must hold a 12 px line.
 */
async function tickLabels(chart: Locator, axis: "xAxis" | "yAxis"): Promise<{ texts: string[]; overlapping: boolean }> {
  // recharts 3 draws tick labels in their own layer, outside the axis's group.
  const ticks = chart.locator(`.recharts-${axis}-tick-labels .recharts-cartesian-axis-tick-value`);
  await expect(ticks.first()).toBeVisible();
  const texts = await ticks.allTextContents();
  const boxes = [];
  for (const tick of await ticks.all()) {
    boxes.push({
      box: await tick.boundingBox(),
      slanted: /rotate\(-45/.test((await tick.getAttribute("transform")) ?? ""),
    });
  }
  let overlapping = false;
  for (let first = 0; first < boxes.length; first += 1) {
    for (let second = first + 1; second < boxes.length; second += 1) {
      const a = boxes[first]?.box;
      const b = boxes[second]?.box;
      if (!a || !b) continue;
      if (boxes[first]?.slanted && boxes[second]?.slanted) {
        const gap = Math.abs(b.x + b.width - (a.x + a.width)) * Math.SQRT1_2;
        if (gap < 12) overlapping = true;
        continue;
      }
      const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
      const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
      if (width > 1 && height > 1) overlapping = true;
    }
  }
  return { texts, overlapping };
}

for (const size of [
  { name: "desktop", width: 1280, height: 900 },
  { name: "phone", width: 390, height: 844 },
]) {
  test(`average order value by store plots the average per store with every store label readable (${size.name})`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    await signIn(page);
    const result = await askForResult(page, "what is the average order value by store?");
    const chart = result.getByRole("figure", { name: "Bar chart of average_order_value_usd by store" });
    await expect(chart).toBeVisible();
    // One series (the average), not the order count, and no stacking by channel.
    await expect(chart).toHaveAttribute("data-series", "average_order_value_usd");
    await expect(chart.locator(".recharts-bar")).toHaveCount(1);
    await expect(chart).toHaveAttribute("data-horizontal", "true");
    const storeCount = await result.getByRole("table").getByRole("row").count();
    const labels = await tickLabels(chart, "yAxis");
    expect(labels.texts).toHaveLength(storeCount - 1);
    expect(labels.texts.some((text) => text.startsWith("Online US"))).toBe(true);
    // Measured again until the layout settles (the chart is redrawn when its width is known).
    await expect.poll(async () => (await tickLabels(chart, "yAxis")).overlapping).toBe(false);
    await chart.screenshot({ path: test.info().outputPath("average-order-value.png") });
    // Bars go the whole way: every store has one rectangle.
    await expect(chart.locator(".recharts-bar-rectangle")).toHaveCount(storeCount - 1);

    // The user may plot the order count too: a second series.
    await result.getByRole("checkbox", { name: "orders" }).check();
    await expect(chart.locator(".recharts-bar")).toHaveCount(2);
    await expect(result.locator("figure.chart")).toHaveAttribute("data-series", "average_order_value_usd|orders");
  });

  test(`the monthly trend draws straight lines, a label per month, and a second axis for another scale (${size.name})`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    await signIn(page);
    const result = await askForResult(page, "show the monthly revenue trend over the last 12 months");
    const chart = result.getByRole("figure", { name: "Line chart of revenue_usd by month" });
    await expect(chart).toBeVisible();
    await expect(chart.locator(".recharts-line")).toHaveCount(1);
    // Straight segments between months: no cubic curve commands in the path.
    const path = await chart.locator(".recharts-line-curve").first().getAttribute("d");
    expect(path).toMatch(/^M/);
    expect(path).not.toMatch(/C/);
    const months = (await result.getByRole("table").getByRole("row").count()) - 1;
    const labels = await tickLabels(chart, "xAxis");
    expect(labels.texts).toHaveLength(months);
    expect(labels.texts[0]).toMatch(/^[A-Z][a-z]{2} \d{4}$/);
    await expect.poll(async () => (await tickLabels(chart, "xAxis")).overlapping).toBe(false);
    // The last month's label is drawn whole, inside the chart ("Nov 2026", not "Nov 202" cut at the edge).
    const surface = await chart.locator(".chart-area svg.recharts-surface").boundingBox();
    const lastTick = await chart
      .locator(".recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value")
      .last()
      .boundingBox();
    expect(lastTick!.x + lastTick!.width).toBeLessThanOrEqual(surface!.x + surface!.width);

    // Adding the order count (about 100 beside about 60,000) puts it on its own axis instead of flat at 0.
    await result.getByRole("checkbox", { name: "orders" }).check();
    const both = result.getByRole("figure", { name: "Line chart of revenue_usd by month; orders on the right axis" });
    await expect(both).toBeVisible();
    await expect(both.locator(".recharts-yAxis-tick-labels")).toHaveCount(2);
    await expect(both.locator(".recharts-line")).toHaveCount(2);
    await both.screenshot({ path: test.info().outputPath("monthly-trend.png") });
    await expect(both.locator(".recharts-legend-item-text")).toHaveText([
      "revenue_usd (left axis)",
      "orders (right axis)",
    ]);

    // The chart type switch still works on the user's pick.
    await result.getByRole("radio", { name: "Bar" }).check();
    await expect(result.getByRole("figure", { name: /^Bar chart of revenue_usd by month/ })).toBeVisible();
  });
}
