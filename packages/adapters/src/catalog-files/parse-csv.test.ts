import { describe, expect, it } from "vitest";
import { parseCsv } from "./parse-csv";
import { parseCsvRecords } from "./parse-csv-records";

const texts = (csv: string) => parseCsv(csv).map((record) => record.fields.map((field) => field.text));

describe("parseCsv", () => {
  it("splits CRLF and LF records and ignores the final line break", () => {
    expect(texts("a,b\r\n1,2\r\n")).toEqual([
      ["a", "b"],
      ["1", "2"],
    ]);
    expect(texts("a,b\n1,2")).toEqual([
      ["a", "b"],
      ["1", "2"],
    ]);
  });

  it("handles quotes, doubled quotes, commas and line breaks inside quotes, and reports start lines", () => {
    const records = parseCsv('id,text\r\n1,"say ""hi"", then\r\nleave"\r\n2,plain\r\n');
    expect(records.map((record) => record.line)).toEqual([1, 2, 4]);
    expect(records[1]!.fields[1]).toEqual({ text: 'say "hi", then\r\nleave', quoted: true });
    expect(records[2]!.fields).toEqual([
      { text: "2", quoted: false },
      { text: "plain", quoted: false },
    ]);
  });

  it("keeps empty fields, distinguishes quoted from bare NULL, and strips a BOM", () => {
    const records = parseCsv('\ufeffa,b,c\r\nNULL,"NULL",\r\n');
    expect(records[0]!.fields[0]!.text).toBe("a");
    expect(records[1]!.fields).toEqual([
      { text: "NULL", quoted: false },
      { text: "NULL", quoted: true },
      { text: "", quoted: false },
    ]);
  });
});

describe("parseCsvRecords", () => {
  it("parses quoted CSV", () => {
    expect(parseCsvRecords('a,b\r\n1,"x, ""y"""\n2,\n')).toEqual([
      ["a", "b"],
      ["1", 'x, "y"'],
      ["2", ""],
    ]);
  });
});
