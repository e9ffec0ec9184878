import path from "node:path";
import { type Catalog, loadSettings, tableKey } from "@nlq/engine";
import { beforeAll, describe, expect, it } from "vitest";
import { readRetrievalCorpus, readRetrievalQuestions } from "../retrieval/retrieval-benchmark-data";
import { formatSchemaSelectionResults } from "./format-schema-selection-results";
import { catalogFromRetrievalCorpus } from "./retrieval-corpus-catalog";
import {
  goldAsHallucinatedSchema,
  goldColumnsKept,
  runSchemaSelectionBenchmark,
  type SchemaSelectionBenchmarkResult,
} from "./run-schema-selection-benchmark";

const fixtures = path.join(import.meta.dirname, "fixtures");

describe("catalogFromRetrievalCorpus", () => {
  it("groups columns into tables per database and turns inferred key links into foreign keys", async () => {
    const catalog = catalogFromRetrievalCorpus(await readRetrievalCorpus(path.join(fixtures, "library.corpus.jsonl")));
    expect(catalog.tables.map(tableKey)).toEqual([
      "library.members",
      "library.loans",
      "library.books",
      "library.authors",
      "games.players",
      "games.teams",
    ]);
    const books = catalog.tables.find((table) => table.name === "books")!;
    expect(books.columns.find((column) => column.name.startsWith("published"))?.comment).toBe(
      "year of first publication",
    );
    // `<table> id` → `<table>s.id`, and the same key-like name in two tables of one database.
    expect(
      books.foreignKeys.map((key) => `${key.columns[0]}→${key.referencedTable}.${key.referencedColumns[0]}`),
    ).toEqual(["author id→authors.id"]);
    const loans = catalog.tables.find((table) => table.name === "loans")!;
    const links = catalog.tables.flatMap((table) =>
      table.foreignKeys.map(
        (key) => `${table.name}.${key.columns[0]}→${key.referencedTable}.${key.referencedColumns[0]}`,
      ),
    );
    expect(links).toEqual(
      expect.arrayContaining([
        "members.member_id→loans.member_id",
        "loans.book_id→books.book_id",
        "players.team_id→teams.team_id",
      ]),
    );
    expect(loans.primaryKey).toEqual([]);
  });
});

describe("goldColumnsKept", () => {
  it("counts the gold keys present in a catalog, compared lower-cased", () => {
    const catalog: Catalog = {
      tables: [
        {
          schema: "Shop",
          name: "Orders",
          kind: "table",
          comment: null,
          columns: [
            { name: "Total (EUR)", dataType: "text", nullable: true, comment: null },
            { name: "id", dataType: "text", nullable: true, comment: null },
          ],
          primaryKey: [],
          foreignKeys: [],
        },
      ],
    };
    expect(goldColumnsKept(catalog, ["shop.orders.total (eur)", "shop.orders.customer", "shop.customers.id"])).toEqual([
      "shop.orders.total (eur)",
    ]);
  });

  it("writes gold columns as a hallucination the output schema accepts", () => {
    expect(goldAsHallucinatedSchema(new Map([["library.books", ["title", "published year (yyyy)", "a,b"]]]))).toEqual([
      "books(title, published year yyyy, a b)",
    ]);
  });
});

describe("runSchemaSelectionBenchmark", () => {
  let result: SchemaSelectionBenchmarkResult;
  beforeAll(async () => {
    result = await runSchemaSelectionBenchmark({
      corpus: await readRetrievalCorpus(path.join(fixtures, "library.corpus.jsonl")),
      questions: await readRetrievalQuestions(path.join(fixtures, "library.questions.jsonl")),
      // 21 columns: above this threshold the live path narrows (CRUSH, learnt ranking, descriptions) before the steps.
      settings: loadSettings({ NLQ_SCHEMA_SELECTION_MIN_COLUMNS: "8" }),
    });
  }, 120_000);

  it("hands CRUSH each question's recorded hallucination, not the gold", () => {
    const [dune, lakers, chile] = result.questions;
    expect(dune!.variants["crush-recorded"]!.hallucinated).toEqual([
      "Borrowers(borrower_id, town)",
      "Borrowings(borrower_id, novel)",
    ]);
    expect(lakers!.variants["crush-recorded"]!.hallucinated).toEqual(["Roster(athlete, franchise)"]);
    expect(dune!.variants["crush-recorded"]!.crushColumns).toBeGreaterThan(0);
    // A recorded hallucination that is no `Table(col, …)` text ("writers country"): since the output schema keeps no
    // pattern (OpenAI strict mode), the engine reads it as a table name instead of falling back to no CRUSH picks.
    expect(chile!.variants["crush-recorded"]!.hallucinated).toEqual(["writers country"]);
    expect(chile!.variants["crush-recorded"]!.crushFallbackReason).toBeUndefined();
    // The peers: gold written as a hallucination (upper bound), an empty one, and no CRUSH at all.
    expect(dune!.variants["crush-gold"]!.hallucinated).toEqual([
      "members(member_id, city)",
      "loans(member_id, book_id)",
      "books(book_id, title)",
    ]);
    expect(dune!.variants["crush-no-hallucination"]!.hallucinated).toEqual([]);
    expect(dune!.variants["question-only"]!.hallucinated).toBeUndefined();
  });

  it("counts gold columns per stage: everything is offered here, the gold-answered steps keep gold plus join keys", () => {
    for (const question of result.questions) {
      for (const variant of result.variants) {
        const stages = question.variants[variant]!.stages;
        // 21 columns in 6 tables, each table reached by the learnt ranking's 20 columns: the whole catalog is offered.
        expect(stages.offered).toMatchObject({ tables: 6, columns: 21 });
        expect(stages["keep-all"]).toMatchObject({ tables: 6, columns: 21 });
        expect(stages["keep-all"].goldKept).toEqual(stages.offered.goldKept);
        expect(stages["gold-steps"].goldKept).toEqual(stages.offered.goldKept);
      }
    }
    const [dune, lakers, chile] = result.questions;
    expect(dune!.variants["crush-recorded"]!.stages["gold-steps"]).toMatchObject({ tables: 3, columns: 6 });
    // games.teams.city is gold but not in the corpus: counted, never kept.
    expect(lakers!.goldMissingFromCorpus).toBe(1);
    expect(lakers!.variants["crush-recorded"]!.stages.offered.goldKept).toHaveLength(4);
    expect(lakers!.variants["crush-recorded"]!.stages["gold-steps"]).toMatchObject({ tables: 2, columns: 4 });
    expect(chile!.variants["crush-recorded"]!.stages["gold-steps"]).toMatchObject({ tables: 2, columns: 4 });
    // Calls: extract_keywords (+ hallucinate_schema with CRUSH), then filter_column, select_tables, select_columns.
    expect(dune!.variants["crush-recorded"]!.stages.offered.calls).toBe(2);
    expect(dune!.variants["question-only"]!.stages.offered.calls).toBe(1);
    expect(dune!.variants["crush-recorded"]!.stages["keep-all"].calls).toBe(5);
  });

  it("summarises per question and pooled", () => {
    const offered = result.summary["crush-recorded"]!.offered;
    expect(offered.questions).toBe(3);
    expect(offered.meanRecall).toBeCloseTo((1 + 4 / 5 + 1) / 3, 10);
    expect(offered.pooledRecall).toBeCloseTo(14 / 15, 10);
    expect(offered.allGoldKept).toBeCloseTo(2 / 3, 10);
    expect(result.summary["crush-recorded"]!["gold-steps"].meanColumns).toBeCloseTo((6 + 4 + 4) / 3, 10);
    expect(result.summary["crush-recorded"]!["gold-steps"].medianColumns).toBe(4);
    const markdown = formatSchemaSelectionResults(result, "nlq bench schema-selection");
    expect(markdown).toContain("No language model is involved");
    expect(markdown).toContain("Recorded hallucinations CRUSH could not use (its output schema rejected them");
    expect(markdown).toContain(": 0/3.");
  });

  it("refuses a corpus the live path would not narrow", async () => {
    await expect(
      runSchemaSelectionBenchmark({
        corpus: await readRetrievalCorpus(path.join(fixtures, "library.corpus.jsonl")),
        questions: [],
        settings: loadSettings({}),
      }),
    ).rejects.toThrow(/not above the schema-selection threshold \(200\)/);
  });
});
