import { describe, expect, it } from "vitest";
import { columnSkipReason, selectColumnValues, valueSkipReason } from "./value-selection";

describe("value selection", () => {
  it("skips keys, non-text types and identifier-like names without reading values", () => {
    expect(columnSkipReason({ name: "code", dataType: "text", isPrimaryKey: true })).toBe("primary key");
    expect(columnSkipReason({ name: "school", dataType: "text", isForeignKey: true })).toBe("foreign key");
    expect(columnSkipReason({ name: "enrollment", dataType: "integer" })).toBe("non-text type integer");
    expect(columnSkipReason({ name: "customer_id", dataType: "text" })).toBe("identifier-like column name");
    expect(columnSkipReason({ name: "CustomerId", dataType: "varchar(20)" })).toBe("identifier-like column name");
    expect(columnSkipReason({ name: "website_url", dataType: "text" })).toBe("identifier-like column name");
    expect(columnSkipReason({ name: "OpenDate", dataType: "text" })).toBe("identifier-like column name");
    expect(columnSkipReason({ name: "County", dataType: "character varying(50)" })).toBeUndefined();
    expect(columnSkipReason({ name: "status", dataType: "USER-DEFINED", isEnum: true })).toBeUndefined();
  });

  it("keeps names, categories and places", () => {
    const selection = selectColumnValues({ name: "County", dataType: "text" }, ["Alameda", "Alpine", "Los Angeles"]);
    expect(selection).toEqual({
      keep: true,
      values: ["Alameda", "Alpine", "Los Angeles"],
      truncated: false,
      droppedValues: 0,
    });
  });

  it("skips columns whose values are mostly numbers, dates, URLs or emails", () => {
    expect(selectColumnValues({ name: "amount", dataType: "text" }, ["1,370", "3.5", "-2", "x"])).toEqual({
      keep: false,
      reason: "values are mostly numbers",
    });
    expect(
      selectColumnValues({ name: "opened", dataType: "text" }, ["2024-01-02", "1999/12/31 10:00", "10:30 pm"]),
    ).toEqual({
      keep: false,
      reason: "values are mostly dates or times",
    });
    expect(selectColumnValues({ name: "contact", dataType: "text" }, ["a@b.org", "c@d.com", "Ann"])).toEqual({
      keep: false,
      reason: "values are mostly emails",
    });
    expect(valueSkipReason("https://example.org/x")).toBe("url");
    expect(valueSkipReason("123e4567-e89b-12d3-a456-426614174000")).toBe("uuid");
  });

  it("skips long free text and drops single long values", () => {
    const paragraph = "This school serves students from many neighbourhoods and offers a wide range of programs.";
    expect(selectColumnValues({ name: "notes", dataType: "text" }, [paragraph, paragraph + "!"])).toEqual({
      keep: false,
      reason: "long free text",
    });
    const long = "x".repeat(120);
    const selection = selectColumnValues({ name: "title", dataType: "text" }, [
      "Dune",
      "Emma",
      "Ulysses",
      "Ivanhoe",
      long,
    ]);
    expect(selection).toMatchObject({ keep: true, values: ["Dune", "Emma", "Ulysses", "Ivanhoe"], droppedValues: 1 });
  });

  it("caps the number of values per column and says so", () => {
    const values = Array.from({ length: 30 }, (_, index) => `Town ${String.fromCharCode(65 + (index % 26))}${index}`);
    const selection = selectColumnValues({ name: "town", dataType: "text" }, values, { maxValuesPerColumn: 10 });
    expect(selection).toMatchObject({ keep: true, truncated: true });
    expect(selection.keep && selection.values.length).toBe(10);
  });
});
