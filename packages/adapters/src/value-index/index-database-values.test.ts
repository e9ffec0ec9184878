import { randomBytes } from "node:crypto";
import {
  columnKey,
  DEFAULT_LSH_PARAMETERS,
  readableColumnKeys,
  retrieveEntities,
  ValueIndexBuilder,
} from "@nlq/engine";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureDataSource } from "../metadata/data-source-store";
import { openMetadataStore } from "../metadata/open-metadata-store";
import { createPgExecutor } from "../postgres/pg-executor";
import { createTestDatabase, dropTestRole, type TestDatabase } from "../testing/test-database";
import { fetchDistinctValues, indexDatabaseValues } from "./index-database-values";
import { ValueIndexStore } from "./value-index-store";

const role = `nlq_values_reader_${randomBytes(4).toString("hex")}`;

const setup = `
  CREATE SCHEMA school;
  CREATE TABLE school.schools (
    cds_code text PRIMARY KEY,
    school_name text NOT NULL,
    county text NOT NULL,
    principal text NOT NULL,
    enrollment integer NOT NULL,
    website text
  );
  INSERT INTO school.schools VALUES
    ('01100170109835', 'Alameda High', 'Alameda', 'Rosa Delgado', 1200, 'https://alamedahigh.example.org'),
    ('01100170112607', 'Alameda County Community', 'Alameda', 'Marcus Olsen', 300, 'https://accs.example.org'),
    ('01316170131763', 'Oakland Charter Academy', 'Alameda', 'Ines Varga', 450, null),
    ('38684780000000', 'Lowell High', 'San Francisco', 'Sandra Francis', 2700, 'https://lowell.example.org'),
    ('19647330000000', 'Hollywood High', 'Los Angeles', 'Alan Meda', 1900, 'https://hollywood.example.org');
  CREATE ROLE ${role} LOGIN;
  GRANT USAGE ON SCHEMA school TO ${role};
  GRANT SELECT (school_name, county) ON school.schools TO ${role};
`;

const columns = [
  { schema: "school", table: "schools", column: "cds_code", dataType: "text", isPrimaryKey: true },
  { schema: "school", table: "schools", column: "school_name", dataType: "text" },
  { schema: "school", table: "schools", column: "county", dataType: "text" },
  { schema: "school", table: "schools", column: "principal", dataType: "text" },
  { schema: "school", table: "schools", column: "enrollment", dataType: "integer" },
  { schema: "school", table: "schools", column: "website", dataType: "text" },
];

describe("indexing a live database and filtering by the asking role's privileges", () => {
  let database: TestDatabase;
  let admin: pg.Client;

  beforeAll(async () => {
    database = await createTestDatabase("nlq_values", setup);
    admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await database?.drop();
    await dropTestRole(role);
  });

  it("fetches capped distinct values", async () => {
    const executor = createPgExecutor(admin);
    const values = await fetchDistinctValues(executor, { schema: "school", table: "schools", column: "county" }, 2);
    expect(values).toHaveLength(2);
    expect(
      await fetchDistinctValues(executor, { schema: "school", table: "schools", column: "county" }, 10),
    ).toHaveLength(3);
  });

  it("indexes the text columns worth indexing and says why the others were skipped", async () => {
    const outcomes = await indexDatabaseValues({ executor: createPgExecutor(admin), columns });
    const summary = Object.fromEntries(
      outcomes.map((outcome) => [outcome.column.column, outcome.indexed ? "indexed" : outcome.reason]),
    );
    expect(summary).toEqual({
      cds_code: "primary key",
      school_name: "indexed",
      county: "indexed",
      principal: "indexed",
      enrollment: "non-text type integer",
      website: "values are mostly URLs",
    });
  });

  it("never returns values from columns the role cannot SELECT (has_column_privilege)", async () => {
    const outcomes = await indexDatabaseValues({ executor: createPgExecutor(admin), columns });
    const builder = new ValueIndexBuilder();
    for (const outcome of outcomes) if (outcome.indexed) builder.addSegment(outcome.segment);
    const index = builder.build();

    const readable = await readableColumnKeys({ executor: createPgExecutor(admin), columns: index.columns, role });
    expect([...readable].sort()).toEqual(
      [
        columnKey({ schema: "school", table: "schools", column: "county" }),
        columnKey({ schema: "school", table: "schools", column: "school_name" }),
      ].sort(),
    );
    // The same answer on the role's own session (current_user), as the proxy would ask it.
    const asRole = new pg.Client({ connectionString: database.urlFor(role) });
    await asRole.connect();
    try {
      expect(await readableColumnKeys({ executor: createPgExecutor(asRole), columns: index.columns })).toEqual(
        readable,
      );
    } finally {
      await asRole.end();
    }

    // "alan meda" and "sandra francis" are principals (unreadable): a superuser finds them, the role does not.
    const everything = await retrieveEntities({
      index,
      keywords: ["alan meda", "sandra francis"],
      readableColumns: "all",
    });
    expect(everything.map((entry) => entry.matches[0]?.value)).toEqual(["Alan Meda", "Sandra Francis"]);
    const restricted = await retrieveEntities({
      index,
      keywords: ["alan meda", "sandra francis", "alameda county", "Sna Francisco"],
      readableColumns: readable,
    });
    for (const entry of restricted) {
      for (const match of entry.matches) expect(readable.has(columnKey(match.column))).toBe(true);
    }
    expect(restricted[2]!.matches.map((match) => [match.column.column, match.value])).toEqual([
      ["school_name", "Alameda County Community"],
      ["county", "Alameda"],
    ]);
    expect(restricted[3]!.matches[0]).toMatchObject({ value: "San Francisco", column: { column: "county" } });
  });

  it("persists every outcome and re-indexes one changed column incrementally", async () => {
    const metadata = await openMetadataStore({ directory: "memory://" });
    try {
      const store = new ValueIndexStore(metadata.database);
      const { id: dataSourceId } = await ensureDataSource(metadata.database, { url: database.url });
      const executor = createPgExecutor(admin);
      await indexDatabaseValues({ executor, columns, store, dataSourceId });
      const listed = await store.listColumns(dataSourceId);
      expect(listed.map((column) => [column.column.column, column.skipReason ?? column.valueCount])).toEqual([
        ["cds_code", "primary key"],
        ["county", 3],
        ["enrollment", "non-text type integer"],
        ["principal", 5],
        ["school_name", 5],
        ["website", "values are mostly URLs"],
      ]);
      const before = await store.loadSegments(dataSourceId, DEFAULT_LSH_PARAMETERS);

      await admin.query("UPDATE school.schools SET county = 'Contra Costa' WHERE county = 'Alameda'");
      await indexDatabaseValues({
        executor,
        columns: columns.filter((column) => column.column === "county"),
        store,
        dataSourceId,
      });
      const after = await store.loadSegments(dataSourceId, DEFAULT_LSH_PARAMETERS);
      const values = (segments: typeof after, name: string) =>
        segments
          .find((segment) => segment.column.column === name)!
          .values.slice()
          .sort();
      expect(values(after, "county")).toEqual(["Contra Costa", "Los Angeles", "San Francisco"]);
      expect(values(after, "school_name")).toEqual(values(before, "school_name"));
      const index = await store.loadIndex(dataSourceId, DEFAULT_LSH_PARAMETERS);
      const [found] = await retrieveEntities({ index, keywords: ["contra costa"], readableColumns: "all" });
      expect(found!.matches[0]).toMatchObject({ value: "Contra Costa", column: { column: "county" } });
    } finally {
      await metadata.close();
    }
  });
});
