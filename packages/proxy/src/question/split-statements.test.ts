import { describe, expect, it } from "vitest";
import { splitStatements } from "./split-statements";

const texts = async (sql: string) => (await splitStatements(sql)).map((statement) => statement.text);

describe("splitStatements (PostgreSQL's lexer)", () => {
  it("splits at top-level semicolons and keeps each statement verbatim", async () => {
    expect(await texts("select 1; /* nl: how many customers */; select 2")).toEqual([
      "select 1",
      "/* nl: how many customers */",
      "select 2",
    ]);
    expect(await texts(";;  select 1 ;; ")).toEqual(["select 1"]);
  });

  it.each([
    ["nested block comments", "select 1 /* a /* b; */ c; */; select 2", ["select 1 /* a /* b; */ c; */", "select 2"]],
    ["-- comments", "select 1 -- a; b\n; select 2", ["select 1 -- a; b", "select 2"]],
    ["dollar quotes", "select $$a;b$$; select $t$ $$; $t$", ["select $$a;b$$", "select $t$ $$; $t$"]],
    ["standard strings", "select 'a;''b'; select 2", ["select 'a;''b'", "select 2"]],
    ["backslash in a standard string", "select 'a\\'; select 2", ["select 'a\\'", "select 2"]],
    ["E'' strings", "select E'a\\';b'; select 2", ["select E'a\\';b'", "select 2"]],
    ["quoted identifiers", 'select 1 as "a;""b"; select 2', ['select 1 as "a;""b"', "select 2"]],
    ["non-ASCII text", "select 'é;ü'; /* nl: wie viele Kunden? */", ["select 'é;ü'", "/* nl: wie viele Kunden? */"]],
    [
      "a SQL-standard function body",
      "create function f() returns int language sql begin atomic select 1; select case when true then 2 end; end; select f()",
      [
        "create function f() returns int language sql begin atomic select 1; select case when true then 2 end; end",
        "select f()",
      ],
    ],
    ["begin as a transaction statement", "begin; select 1; end", ["begin", "select 1", "end"]],
  ])("handles %s", async (_name, sql, expected) => {
    expect(await texts(sql)).toEqual(expected);
  });

  it("marks statements made only of comments and gives byte offsets", async () => {
    const text = "select 'é'; /* nl: q */ -- more\n";
    const statements = await splitStatements(text);
    expect(statements.map((statement) => statement.onlyComments)).toEqual([false, true]);
    const bytes = Buffer.from(text);
    for (const statement of statements) {
      expect(bytes.subarray(statement.start, statement.end).toString()).toBe(statement.text);
    }
  });

  it.each(["select 'open", 'select "open', "select 1 /* open", "select $a$ open"])(
    "refuses text that does not lex: %j",
    async (sql) => {
      await expect(splitStatements(sql)).rejects.toMatchObject({ code: "42601" });
    },
  );
});
