import { describe, expect, it } from "vitest";
import type { Catalog, TableInfo } from "../catalog/catalog-types";
import type { KnowledgeEntry } from "../contract/knowledge";
import { catalogTable } from "../testing/catalog-table";
import { planReadings } from "./plan-readings";

const integer = (table: TableInfo, ...names: string[]): TableInfo => ({
  ...table,
  columns: table.columns.map((column) => (names.includes(column.name) ? { ...column, dataType: "integer" } : column)),
});

const singer = integer(
  catalogTable("public", "singer", ["singer_id", "artist_name", "performer_name", "country", "age"], {
    primaryKey: ["singer_id"],
  }),
  "singer_id",
  "age",
);

function plan(question: string, tables: readonly TableInfo[], selected: readonly TableInfo[] = tables) {
  const catalog: Catalog = { tables };
  return planReadings({ question, selected: { tables: selected }, catalog });
}

describe("planReadings", () => {
  it("finds two columns of one table that fit a word of the question, one reading each", () => {
    const { readings } = plan("Show the name of every singer", [singer]);
    expect(readings.map((reading) => [reading.kind, reading.phrase, reading.chosen.label])).toEqual([
      ["columns", "name", "singer.artist_name"],
      ["columns", "name", "singer.performer_name"],
    ]);
    expect(readings[0]).toMatchObject({
      number: 1,
      chosen: { elements: ["public.singer.artist_name"] },
      alternatives: [{ label: "singer.performer_name", elements: ["public.singer.performer_name"] }],
      instruction: "In this reading of the question, «name» means singer.artist_name, not singer.performer_name.",
    });
  });

  it("raises nothing when a column is named by the word alone, or the question names the qualifier", () => {
    const named = catalogTable("public", "singer", ["singer_id", "name", "song_name"], { primaryKey: ["singer_id"] });
    expect(plan("Show the name of every singer", [named]).readings).toEqual([]);
    expect(plan("Show the artist name of every singer", [singer]).readings).toEqual([]);
  });

  it("raises nothing when another selected table has a column the word names (defog's restaurants and sales)", () => {
    const restaurant = catalogTable("public", "restaurant", ["id", "name", "food_type", "rating"], {
      primaryKey: ["id"],
    });
    const location = catalogTable("public", "location", ["restaurant_id", "street_name", "city_name"]);
    expect(
      plan("What are the names of the top 3 restaurants with the highest ratings?", [restaurant, location]).readings,
    ).toEqual([]);
    const sales = catalogTable("public", "sales", ["id", "salesperson_id", "sale_price", "sale_date"], {
      primaryKey: ["id"],
    });
    const salespersons = catalogTable("public", "salespersons", ["id", "hire_date", "termination_date"], {
      primaryKey: ["id"],
    });
    expect(plan("What were the total sales by date?", [sales, salespersons]).readings).toEqual([]);
    // The same two columns alone still raise the reading.
    expect(plan("What were the total sales by date?", [salespersons]).readings).toHaveLength(2);
  });

  it("does not take two sides of one thing for two readings (first/last, home/away, line 1/line 2)", () => {
    const people = catalogTable("public", "people", ["person_id", "first_name", "last_name"]);
    const games = catalogTable("public", "game", ["game_id", "home_team", "away_team"]);
    const addresses = catalogTable("public", "address", ["address_id", "line1", "line2"]);
    expect(plan("What are the names of the people?", [people]).readings).toEqual([]);
    expect(plan("Which team played most games?", [games]).readings).toEqual([]);
    expect(plan("List every line of the addresses", [addresses]).readings).toEqual([]);
  });

  it("finds copies of a table (the same columns), even when the question names neither", () => {
    const artist = catalogTable("public", "artist", ["singer_id", "name", "country", "age"]);
    const performer = catalogTable("public", "performer", ["singer_id", "name", "country", "age"]);
    const { readings } = plan("How many singers are from France?", [artist, performer], [performer]);
    expect(readings.map((reading) => reading.chosen.label)).toEqual(["performer", "artist"]);
    expect(readings[0]).toMatchObject({ kind: "tables", phrase: "artist or performer", tables: ["public.performer"] });
    // A question that names one of them means that one.
    expect(plan("How many artists are from France?", [artist, performer]).readings).toEqual([]);
  });

  it("finds tables of one name across a warehouse's schemas when the question says it", () => {
    const geo = catalogTable("geo", "countries", ["code", "name"]);
    const sales = catalogTable("sales", "country", ["id", "label", "region"]);
    const { readings } = plan("How many countries exist?", [geo, sales], [sales]);
    expect(readings.map((reading) => reading.chosen.label)).toEqual(["sales.country", "geo.countries"]);
    expect(readings[1]!.tables).toEqual(["geo.countries"]);
    expect(plan("How many regions exist?", [geo, sales], [sales]).readings).toEqual([]);
  });

  it("offers a copy from another schema only when that schema has the other tables the question reads", () => {
    const customers = catalogTable("driving_school", "customers", ["customer_id", "first_name", "last_name"]);
    const lessons = catalogTable("driving_school", "lessons", ["lesson_id", "customer_id", "lesson_date"]);
    const chinook = catalogTable("chinook_1", "customer", ["customerid", "firstname", "company"]);
    const tables = [customers, lessons, chinook];
    expect(plan("Which customers took the most lessons?", tables, [customers, lessons]).readings).toEqual([]);
    // With lessons beside it, the other schema's customers is a reading again.
    const chinookLessons = catalogTable("chinook_1", "lessons", ["lesson_id", "customerid", "lesson_date"]);
    const readings = plan(
      "Which customers took the most lessons?",
      [...tables, chinookLessons],
      [customers, lessons],
    ).readings;
    expect(readings.map((reading) => reading.chosen.label)).toEqual(["driving_school.customers", "chinook_1.customer"]);
  });

  it("finds a column read directly or through a split-out table", () => {
    const split = catalogTable("public", "singer_country", ["singer_id", "country"], {
      foreignKeys: [
        {
          name: "singer_country_singer_id_fkey",
          columns: ["singer_id"],
          referencedSchema: "public",
          referencedTable: "singer",
          referencedColumns: ["singer_id"],
        },
      ],
    });
    const { readings } = plan("Which country is each singer from?", [singer, split], [singer]);
    expect(readings.map((reading) => [reading.kind, reading.chosen.label])).toEqual([
      ["join-path", "singer.country"],
      ["join-path", "singer_country.country (joined to singer on singer_id)"],
    ]);
    expect(readings[1]!.tables).toEqual(["public.singer", "public.singer_country"]);
    expect(plan("How old is each singer?", [singer, split], [singer]).readings).toEqual([]);
  });

  it("finds a stored aggregate beside the rows, only for a question asking an aggregate", () => {
    const stadium = catalogTable("public", "stadium", ["stadium_id", "name", "capacity"]);
    const stored = catalogTable("public", "stadium_capacity", ["avg_capacity", "max_capacity"]);
    const { readings } = plan(
      "What is the average and maximum capacity of all stadiums?",
      [stadium, stored],
      [stadium],
    );
    expect(readings.map((reading) => [reading.kind, reading.phrase, reading.chosen.elements])).toEqual([
      ["stored-aggregate", "capacity", ["public.stadium.capacity"]],
      [
        "stored-aggregate",
        "capacity",
        ["public.stadium_capacity.avg_capacity", "public.stadium_capacity.max_capacity"],
      ],
    ]);
    expect(plan("Which stadiums have a capacity above 5000?", [stadium, stored], [stadium]).readings).toEqual([]);
  });

  it("follows a confirmation no detector raised when the question holds its phrase and the selected schema its table", () => {
    const pets = catalogTable("public", "pets", ["pet_id", "mass", "body_weight"], { primaryKey: ["pet_id"] });
    const entry: KnowledgeEntry = {
      id: "k2",
      kind: "reading",
      name: "weight",
      text: "weight means pets.body_weight",
      references: ["public.pets.body_weight"],
      reading: {
        phrase: "weight",
        chosen: { label: "pets.body_weight", elements: ["public.pets.body_weight"] },
        alternatives: [{ label: "pets.mass", elements: ["public.pets.mass"] }],
      },
      origin: "reading",
      sharedWithAllRoles: false,
      updatedAt: "2026-12-02T05:00:00.000Z",
    };
    const catalog = { tables: [pets, singer] };
    const followed = planReadings({
      question: "the weight of each pet",
      selected: { tables: [pets] },
      catalog,
      knowledge: [entry],
    });
    expect(followed.followed.map((confirmation) => [confirmation.phrase, confirmation.chosen.label])).toEqual([
      ["weight", "pets.body_weight"],
    ]);
    expect(followed.common).toEqual({
      instructions: ["«weight» means pets.body_weight, not pets.mass (a confirmed reading)."],
      tables: ["public.pets"],
    });
    // Another table's question, or a question without the phrase, is not decided by it.
    for (const [question, selected] of [
      ["the weight of each singer", [singer]],
      ["the mass of each pet", [pets]],
    ] as const) {
      expect(planReadings({ question, selected: { tables: selected }, catalog, knowledge: [entry] }).followed).toEqual(
        [],
      );
    }
  });

  it("follows a confirmed reading of the same phrase instead of raising it (rule 5), saying whose and when", () => {
    const entry: KnowledgeEntry = {
      id: "k1",
      kind: "reading",
      name: "name",
      text: "name means singer.performer_name",
      references: ["public.singer.performer_name"],
      reading: {
        phrase: "Name",
        chosen: { label: "singer.performer_name", elements: ["public.singer.performer_name"] },
        alternatives: [{ label: "singer.artist_name", elements: ["public.singer.artist_name"] }],
      },
      origin: "reading",
      sharedWithAllRoles: true,
      updatedAt: "2026-12-01T10:00:00.000Z",
    };
    const followed = planReadings({
      question: "List the names of singers from France",
      selected: { tables: [singer] },
      catalog: { tables: [singer] },
      knowledge: [entry],
    });
    expect(followed.readings).toEqual([]);
    expect(followed.followed).toEqual([
      {
        entryId: "k1",
        phrase: "name",
        chosen: { label: "singer.performer_name", elements: ["public.singer.performer_name"] },
        setAside: [{ label: "singer.artist_name", elements: ["public.singer.artist_name"] }],
        confirmedBy: "an administrator",
        confirmedAt: "2026-12-01T10:00:00.000Z",
      },
    ]);
    expect(followed.common.instructions).toEqual([
      "«name» means singer.performer_name, not singer.artist_name (a confirmed reading).",
    ]);
    // Another phrase, or elements that are not among the options, decide nothing.
    const otherPhrase = { ...entry, reading: { ...entry.reading!, phrase: "title" } };
    const otherElements = {
      ...entry,
      reading: { ...entry.reading!, chosen: { label: "x", elements: ["public.singer.country"] } },
    };
    for (const knowledge of [[otherPhrase], [otherElements], [{ ...entry, kind: "term" as const }]]) {
      const plain = planReadings({
        question: "List the names of singers",
        selected: { tables: [singer] },
        catalog: { tables: [singer] },
        knowledge,
      });
      expect(plain.followed).toEqual([]);
      expect(plain.readings).toHaveLength(2);
    }
  });
});

describe("planReadings: one quantity in several units", () => {
  const product = catalogTable("public", "product", ["product_id", "name", "price_usd", "price_eur"], {
    primaryKey: ["product_id"],
  });
  it("offers each unit when the question names none", () => {
    const { readings } = planReadings({
      question: "What is the price of each product?",
      selected: { tables: [product] },
      catalog: { tables: [product] },
    });
    expect(readings.map((reading) => [reading.phrase, reading.chosen.label])).toEqual([
      ["price", "product.price_usd"],
      ["price", "product.price_eur"],
    ]);
  });
  it("raises nothing when the question names the unit", () => {
    const { readings } = planReadings({
      question: "What is the price in EUR of each product?",
      selected: { tables: [product] },
      catalog: { tables: [product] },
    });
    expect(readings).toEqual([]);
  });
});

describe("planReadings: hostile names", () => {
  it("shows labels without control or bidirectional characters, keeping the elements exact", () => {
    const table = catalogTable("public", "singer\u202e", ["singer_id", "artist_name\u0007", "performer_name"], {
      primaryKey: ["singer_id"],
    });
    const { readings } = planReadings({
      question: "Show the name of every singer",
      selected: { tables: [table] },
      catalog: { tables: [table] },
    });
    expect(readings.map((reading) => reading.chosen.label)).toEqual(["singer .artist_name", "singer .performer_name"]);
    expect(readings[0]!.chosen.elements).toEqual(["public.singer\u202e.artist_name\u0007"]);
    expect(readings[0]!.instruction).not.toMatch(/[\u0007\u202e]/);
  });
});
