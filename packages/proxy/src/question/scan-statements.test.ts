import { loadModule, scanSync } from "libpg-query";
import { beforeAll, describe, expect, it } from "vitest";
import { scanStatements } from "./scan-statements";
import { splitStatements } from "./split-statements";

/** Each statement as `sql` or its comments, the way a reader of scan.l would list them. */
function shape(text: string): string[][] {
  return scanStatements(text).statements.map((statement) => [
    statement.hasSql ? "sql" : "comments",
    ...statement.comments.map((comment) => (comment.kind === "line" ? `--${comment.body}` : `/*${comment.body}*/`)),
  ]);
}

describe("scanStatements follows PostgreSQL's scanner (scan.l)", () => {
  it.each([
    ["a -- comment ends at a carriage return", "-- note\rselect 1", [["sql", "-- note"]]],
    ["a -- comment ends at \\r\\n", "-- a\r\n-- b\r\n", [["comments", "-- a", "-- b"]]],
    ["a -- comment after SQL ends at \\r", "select 1; -- x\rselect 2", [["sql"], ["sql", "-- x"]]],
    ["form feed is whitespace", "\f/* c */\f", [["comments", "/* c */"]]],
    ["no-break space is not whitespace (an identifier character)", "\u00a0/* c */", [["sql", "/* c */"]]],
    ["nested block comments", "/* a /* b */ c */ /* d */", [["comments", "/* a /* b */ c */", "/* d */"]]],
    ["a slash-star-slash opens one level", "/*/ x */", [["comments", "/*/ x */"]]],
    ["stars before the closing slash", "/* x **/", [["comments", "/* x **/"]]],
    ["an operator ends where -- begins", "select 1 +-- c\n 2", [["sql", "-- c"]]],
    ["an E'' string continues after a newline with backslash escapes", "select E'a'\n'\\'; /* c */; '", [["sql"]]],
    ["a continuation may hold -- comments", "select E'a' -- x\n'\\'; /* c */; '", [["sql"]]],
    [
      "a block comment ends a continuation",
      "select E'a' /* x */\n'\\'; /* c */",
      [
        ["sql", "/* x */"],
        ["comments", "/* c */"],
      ],
    ],
    ["without a newline there is no continuation", "select E'a' '\\'; /* c */", [["sql"], ["comments", "/* c */"]]],
    ["e' inside an identifier is a standard string", "select xe'\\'; /* c */", [["sql"], ["comments", "/* c */"]]],
    [
      "U&'' and B'' quote as standard strings",
      "select U&'\\'; /* c */; select b'1'",
      [["sql"], ["comments", "/* c */"], ["sql"]],
    ],
    ["a dollar quote after a number", "select 1$$; /* c */; $$", [["sql"]]],
    ["a dollar quote after a parameter", "select $1$$; /* c */; $$", [["sql"]]],
    ["no dollar quote inside an identifier", "select a$b$; /* c */", [["sql"], ["comments", "/* c */"]]],
    ["a tagged dollar quote", "select $t$ $$; /* c */ $t$", [["sql"]]],
    ["quoted identifiers", 'select 1 as "a;""--"; -- c', [["sql"], ["comments", "-- c"]]],
    [
      "a SQL-standard function body keeps its semicolons",
      "create function f() returns int language sql begin atomic select 1; /* c */; end; /* d */",
      [
        ["sql", "/* c */"],
        ["comments", "/* d */"],
      ],
    ],
  ])("%s", (_name, text, expected) => {
    expect(shape(text)).toEqual(expected);
  });

  it("takes backslash escapes in plain strings with standard_conforming_strings off", () => {
    const text = "select 'a\\'; /* c */; select '";
    expect(shape(text)).toEqual([["sql"], ["comments", "/* c */"], ["sql"]]);
    const off = scanStatements(text, { standardConformingStrings: false }).statements;
    expect(off).toEqual([{ comments: [], hasSql: true }]);
    expect(scanStatements("select n'\\'; /* c */", { standardConformingStrings: false }).statements).toHaveLength(1);
    expect(scanStatements("select b'\\'; /* c */", { standardConformingStrings: false }).statements).toHaveLength(2);
  });

  it.each([
    ["a long gap after a string", `select 'a'\n${" ".repeat(200_000)}x`],
    ["many -- pairs after a string", `select 'a' ${"-- ".repeat(100_000)}x`],
    ["comment lines after a string", `select 'a'\n${"-- c\n".repeat(50_000)}x`],
    ["unclosed dollar tags", `select ${"$a ".repeat(100_000)}`],
    ["digits and dots", `select ${"1.".repeat(100_000)}`],
  ])("scans hostile text in linear time: %s", (_name, text) => {
    const started = performance.now();
    scanStatements(`${text}; /* nl: q */`);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it("marks a vertical tab outside strings and comments as version-dependent (whitespace from PostgreSQL 16)", () => {
    expect(scanStatements("\v/* c */").versionDependent).toBe(true);
    expect(scanStatements("select E'a'\v\n'b'").versionDependent).toBe(true);
    expect(scanStatements("select '\v' /* \v */ -- \v").versionDependent).toBe(false);
  });
});

/** Statements as libpg-query's lexer (PostgreSQL's scan.l, compiled) sees them, split at every top-level `;`. */
function libpgShape(text: string): string[][] | undefined {
  let tokens: ReturnType<typeof scanSync>["tokens"];
  try {
    tokens = scanSync(text).tokens;
  } catch {
    return undefined;
  }
  const bytes = Buffer.from(text, "utf8");
  const statements: string[][] = [];
  let current: string[] = [];
  let hasSql = false;
  const end = () => {
    if (current.length > 0 || hasSql) statements.push([hasSql ? "sql" : "comments", ...current]);
    current = [];
    hasSql = false;
  };
  for (const token of tokens) {
    if (token.text === ";") end();
    else if (token.tokenName === "SQL_COMMENT" || token.tokenName === "C_COMMENT") {
      current.push(bytes.subarray(token.start, token.end).toString("utf8"));
    } else hasSql = true;
  }
  end();
  return statements;
}

describe("scanStatements against libpg-query's lexer", () => {
  beforeAll(async () => {
    await loadModule();
  });

  it("agrees on statements and comments for 4,000 random texts of tricky pieces", () => {
    const pieces = [
      "select",
      " ",
      "\n",
      "\r",
      "\t",
      "--",
      "/*",
      "*/",
      "'",
      "E'",
      "e",
      "\\",
      "$$",
      "$a$",
      "$1",
      "1",
      ";",
      "nl:",
      '"',
      "x",
      "é",
      "-",
      "*",
      "/",
      "U&'",
      "b'",
    ];
    let seed = 11;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    let compared = 0;
    for (let index = 0; index < 4_000; index++) {
      const length = 1 + Math.floor(random() * 10);
      const text = Array.from({ length }, () => pieces[Math.floor(random() * pieces.length)]).join("");
      const expected = libpgShape(text);
      if (expected === undefined) continue;
      compared++;
      expect(shape(text), JSON.stringify(text)).toEqual(expected);
    }
    expect(compared).toBeGreaterThan(1_000);
  });
});

describe("scanStatements against splitStatements (libpg-query's tokens, psql's BEGIN ATOMIC rule)", () => {
  it("agrees on where statements end and which hold SQL for 3,000 random texts with CREATE … BEGIN … END", async () => {
    const pieces = [
      "create function f() ",
      "begin atomic ",
      "case ",
      "end",
      ";",
      " ",
      "\n",
      "\f",
      "select 1",
      "/* c */",
      "-- c\r",
      "'",
      "$$",
      "E'\\'",
    ];
    let seed = 23;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    let compared = 0;
    for (let index = 0; index < 3_000; index++) {
      const text = Array.from(
        { length: 1 + Math.floor(random() * 9) },
        () => pieces[Math.floor(random() * pieces.length)],
      ).join("");
      let expected: boolean[];
      try {
        expected = (await splitStatements(text)).map((statement) => !statement.onlyComments);
      } catch {
        continue;
      }
      compared++;
      expect(
        scanStatements(text).statements.map((statement) => statement.hasSql),
        JSON.stringify(text),
      ).toEqual(expected);
    }
    expect(compared).toBeGreaterThan(1_000);
  });
});
