import { describe, expect, it } from "vitest";
import type { Catalog, TableInfo } from "../catalog/catalog-types";
import { catalogTable } from "../testing/catalog-table";
import { recordingStepContext } from "../testing/recording-step-context";
import { flaggedAmbiguities, flagReadings } from "./flag-readings";

const typed = (table: TableInfo, dataType: string, ...names: string[]): TableInfo => ({
  ...table,
  columns: table.columns.map((column) => (names.includes(column.name) ? { ...column, dataType } : column)),
});

const pets = typed(
  catalogTable("public", "pets", ["pet_id", "pet_type", "mass", "body_weight", "pet_age", "years_old"], {
    primaryKey: ["pet_id"],
  }),
  "real",
  "mass",
  "body_weight",
);
const owners = catalogTable("public", "owners", ["owner_id", "first_name", "last_name", "weight"], {
  primaryKey: ["owner_id"],
});
const owners2 = catalogTable("public", "owners_2", ["owner_id", "first_name", "last_name", "weight"], {
  primaryKey: ["owner_id"],
});
const catalog: Catalog = { tables: [pets, owners, owners2] };

function flags(question: string, ...phrases: Array<{ phrase: string; meanings: string[]; reason?: string }>) {
  return flaggedAmbiguities({ phrases: phrases.map((phrase) => ({ reason: "", ...phrase })) }, question, catalog);
}

describe("flaggedAmbiguities", () => {
  it("turns a flagged phrase and its columns into a column ambiguity, in the model's order, saying it was the model's", () => {
    const [weight] = flags("What is the average weight of the pets?", {
      phrase: "Weight",
      meanings: ["pets.body_weight", "public.pets.mass"],
      reason: "both hold a weight",
    });
    expect(weight).toEqual({
      kind: "columns",
      phrase: "weight",
      options: [
        { label: "pets.body_weight", elements: ["public.pets.body_weight"], tables: ["public.pets"] },
        { label: "pets.mass", elements: ["public.pets.mass"], tables: ["public.pets"] },
      ],
      evidence: 'pets.body_weight, pets.mass all fit "weight" (flagged by the model: both hold a weight)',
    });
  });

  it("turns flagged tables into a table ambiguity", () => {
    const [table] = flags("How many owners are there?", { phrase: "owners", meanings: ["owners", "public.owners_2"] });
    expect(table).toMatchObject({
      kind: "tables",
      phrase: "owner",
      options: [{ elements: ["public.owners"] }, { elements: ["public.owners_2"] }],
    });
  });

  it("drops what the schema does not bear out instead of repairing it", () => {
    const question = "What is the average weight and age of the pets?";
    expect(flags(question, { phrase: "heaviness", meanings: ["pets.mass", "pets.body_weight"] })).toEqual([]);
    expect(flags(question, { phrase: "weight", meanings: ["pets.mass"] })).toEqual([]);
    expect(flags(question, { phrase: "weight", meanings: ["pets.mass", "pets.mass"] })).toEqual([]);
    expect(flags(question, { phrase: "weight", meanings: ["pets.mass", "pets.heft"] })).toEqual([]);
    expect(flags(question, { phrase: "weight", meanings: ["pets.mass", "pets"] })).toEqual([]);
    // A column and a key, values of different kinds, the column the phrase names alone, two sides of one thing.
    expect(flags(question, { phrase: "weight", meanings: ["pets.mass", "pets.pet_id"] })).toEqual([]);
    expect(flags(question, { phrase: "age", meanings: ["pets.mass", "pets.pet_age"] })).toEqual([]);
    expect(flags("Whose weight is above 80?", { phrase: "weight", meanings: ["owners.weight", "pets.mass"] })).toEqual(
      [],
    );
    expect(
      flags("List the owners' names", { phrase: "names", meanings: ["owners.first_name", "owners.last_name"] }),
    ).toEqual([]);
  });

  it("keeps one ambiguity per phrase and at most three options", () => {
    const wide = typed(
      catalogTable("public", "box", ["box_id", "mass", "weight_value", "heft", "load"]),
      "real",
      "mass",
      "weight_value",
      "heft",
      "load",
    );
    const found = flaggedAmbiguities(
      {
        phrases: [
          { phrase: "weight", reason: "", meanings: ["box.mass", "box.heft", "box.load", "box.weight_value"] },
          { phrase: "weight", reason: "", meanings: ["box.mass", "box.heft"] },
        ],
      },
      "the weight of each box",
      { tables: [wide] },
    );
    expect(found).toHaveLength(1);
    expect(found[0]!.options.map((option) => option.label)).toEqual(["box.mass", "box.heft", "box.load"]);
  });
});

describe("flagReadings", () => {
  it("asks the model once with the question, hint and schema", async () => {
    const { context, calls } = recordingStepContext(
      "average weight of pets",
      () =>
        JSON.stringify({
          phrases: [{ phrase: "weight", reason: "synonyms", meanings: ["pets.mass", "pets.body_weight"] }],
        }),
      { hint: "pets.pet_type = 'dog'" },
    );
    const found = await flagReadings({ context, selected: { tables: [pets] } });
    expect(found.map((ambiguity) => ambiguity.options.map((option) => option.label))).toEqual([
      ["pets.mass", "pets.body_weight"],
    ]);
    expect(calls.map((call) => call.step)).toEqual(["find-readings"]);
    expect(calls[0]!.prompt).toContain("Question: average weight of pets\nHint: pets.pet_type = 'dog'");
    expect(calls[0]!.prompt).toContain("body_weight");
  });

  it("flags nothing when the reply cannot be read (the question goes on without readings)", async () => {
    const { context } = recordingStepContext("average weight of pets", () => "not json at all");
    expect(await flagReadings({ context, selected: { tables: [pets] } })).toEqual([]);
  });
});
