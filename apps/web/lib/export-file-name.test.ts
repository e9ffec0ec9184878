import { describe, expect, it } from "vitest";
import { exportFileName } from "./export-file-name";

describe("exported files are named from the question", () => {
  it("slugs the question: nlq-show-the-monthly-revenue-trend-over-the-last-12-months.png", () => {
    expect(exportFileName("show the monthly revenue trend over the last 12 months", "png")).toBe(
      "nlq-show-the-monthly-revenue-trend-over-the-last-12-months.png",
    );
    expect(exportFileName("What is the average order value by store?", "csv")).toBe(
      "nlq-what-is-the-average-order-value-by-store.csv",
    );
  });

  it("drops accents and anything a file system or header would choke on, and cuts long questions at a word", () => {
    expect(exportFileName('Umsätze in "Köln"/Düsseldorf; 2025?\r\n', "csv")).toBe(
      "nlq-umsatze-in-koln-dusseldorf-2025.csv",
    );
    const long = exportFileName("which customers ".repeat(20), "png");
    expect(long.length).toBeLessThanOrEqual("nlq-.png".length + 60);
    expect(long).toBe("nlq-which-customers-which-customers-which-customers-which.png");
  });

  it("falls back to nlq-result without a question", () => {
    expect(exportFileName(undefined, "csv")).toBe("nlq-result.csv");
    expect(exportFileName("?!", "png")).toBe("nlq-result.png");
  });
});
