import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Catalog } from "@nlq/engine";
import { describe, expect, it } from "vitest";
import { decodeTextFile } from "./decode-text-file";
import { mergeExternalDescriptions } from "./merge-external-descriptions";
import { parseBirdDescription } from "./parse-bird-description";
import { parseCsvRecords } from "./parse-csv-records";
import { parseDefogDescription } from "./parse-defog-description";
import { readCatalogFiles } from "./read-catalog-files";

const defogAcademic = "/work/shared/data/defog/databases/academic/academic.json";

const birdCsv = `original_column_name,column_name,column_description,data_format,value_description
CDSCode,,CDSCode,integer,
"Charter School (Y/N)",Charter School (Y/N),Charter School (Y/N),integer,"0: N;
1: Y"
cname,county name,"the ""county"" name",text,
empty_col,,,text,
`;

describe("external catalog files", () => {
  it("parses CSV with quotes, escaped quotes, embedded newlines and CRLF", () => {
    expect(parseCsvRecords('a,b\r\n"x ""y""","1\n2"\r\n\r\nlast,')).toEqual([
      ["a", "b"],
      ['x "y"', "1\n2"],
      ["last", ""],
    ]);
  });

  it("decodes UTF-8 with BOM, UTF-16 LE and Windows-1252", () => {
    expect(decodeTextFile(new Uint8Array([0xef, 0xbb, 0xbf, 0x61, 0xc3, 0xa9]))).toBe("aé");
    expect(decodeTextFile(new Uint8Array([0xff, 0xfe, 0x61, 0x00, 0xe9, 0x00]))).toBe("aé");
    expect(decodeTextFile(new Uint8Array([0x61, 0xe9, 0x92]))).toBe("aé’");
  });

  it("combines BIRD expanded names, descriptions and value descriptions", () => {
    expect(parseBirdDescription("schools", birdCsv)).toEqual([
      { table: "schools", column: "CDSCode", description: "CDSCode" },
      { table: "schools", column: "Charter School (Y/N)", description: "Charter School (Y/N). Values: 0: N; 1: Y" },
      { table: "schools", column: "cname", description: 'county name: the "county" name' },
    ]);
  });

  it("parses the real defog academic description file", async () => {
    const { readFile } = await import("node:fs/promises");
    const parsed = parseDefogDescription(await readFile(defogAcademic, "utf8"));
    expect(parsed.columns).toContainEqual({
      table: "cite",
      column: "cited",
      description: "ID of the publication being cited",
    });
    expect(parsed.columns.length).toBeGreaterThan(20);
  });

  it("keeps a defog glossary (free text about the database) apart from the descriptions", async () => {
    const { readFile } = await import("node:fs/promises");
    const broker = await readFile("/work/shared/data/defog/databases/broker/broker.json", "utf8");
    const parsed = parseDefogDescription(broker, "broker.json");
    expect(parsed.glossaries).toEqual([
      {
        source: "broker.json",
        text: expect.stringContaining("- sbTicker can be joined to sbDailyPrice on sbTickerId"),
      },
    ]);
    expect(parseDefogDescription(await readFile(defogAcademic, "utf8")).glossaries).toBeUndefined();
  });

  it("reads a directory of BIRD CSVs (BOM) and defog JSON", async () => {
    const directory = await mkdtemp(path.join(tmpdir(), "nlq-catalog-files-"));
    try {
      await mkdir(path.join(directory, "database_description"));
      const bom = Buffer.from([0xef, 0xbb, 0xbf]);
      await writeFile(
        path.join(directory, "database_description", "schools.csv"),
        Buffer.concat([bom, Buffer.from(birdCsv)]),
      );
      await writeFile(
        path.join(directory, "extra.json"),
        JSON.stringify({
          table_metadata: { frpm: [{ column_name: "cdscode", column_description: "school code" }] },
          glossary: "- FRPM = free or reduced-price meals",
        }),
      );
      await writeFile(path.join(directory, "notes.txt"), "ignored");
      const descriptions = await readCatalogFiles(directory);
      expect(descriptions.columns.map((column) => `${column.table}.${column.column}`)).toEqual([
        "schools.CDSCode",
        "schools.Charter School (Y/N)",
        "schools.cname",
        "frpm.cdscode",
      ]);
      expect(descriptions.glossaries).toEqual([{ source: "extra.json", text: "- FRPM = free or reduced-price meals" }]);
      await expect(readCatalogFiles(path.join(directory, "missing"))).rejects.toThrow("catalog files not found");
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it("merges descriptions where COMMENT ON is absent; COMMENT ON wins", () => {
    const catalog: Catalog = {
      tables: [
        {
          schema: "public",
          name: "Schools",
          kind: "table",
          comment: null,
          primaryKey: [],
          foreignKeys: [],
          columns: [
            { name: "cdscode", dataType: "text", nullable: false, comment: "from the database" },
            { name: "cname", dataType: "text", nullable: true, comment: null },
            { name: "other", dataType: "text", nullable: true, comment: null },
          ],
        },
      ],
    };
    const merged = mergeExternalDescriptions(catalog, {
      tables: [{ table: "public.schools", description: "California schools" }],
      columns: [
        { table: "schools", column: "CDSCode", description: "from the file" },
        { table: "schools", column: "CNAME", description: "county name" },
      ],
    });
    expect(merged.tables[0]!.comment).toBe("California schools");
    expect(merged.tables[0]!.columns.map((column) => column.comment)).toEqual([
      "from the database",
      "county name",
      null,
    ]);
  });
});
