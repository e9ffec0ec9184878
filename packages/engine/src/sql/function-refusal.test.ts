import { describe, expect, it } from "vitest";
import type { RelationFacts } from "./catalog-facts";
import { createFunctionPolicy, type OwnerFacts, type RoutineFacts } from "./function-policy";
import { dangerousFunctionPattern, implicitCallRefusal, isTrustedOwner } from "./function-refusal";
import { relationProblems } from "./relation-problems";
import { mayReadValues } from "./value-read-policy";

const superuser: OwnerFacts = { name: "postgres", superuser: true };
const asker: OwnerFacts = { name: "analyst", superuser: false };
const appOwner: OwnerFacts = { name: "app_owner", superuser: false };
const planter: OwnerFacts = { name: "att", superuser: false };
const trust = { asker: "analyst", trustedOwners: new Set(["app_owner"]) };
const none = new Set<string>();

const routine = (name: string, owner: OwnerFacts, extra: Partial<RoutineFacts> = {}): RoutineFacts => ({
  schema: "app",
  name,
  volatility: "v",
  extension: null,
  onSearchPath: false,
  owner,
  untrustedLanguage: false,
  ...extra,
});

describe("isTrustedOwner", () => {
  it("trusts superusers, the asker and the configured owners, nobody else (an unknown owner neither)", () => {
    expect([superuser, asker, appOwner, planter, undefined].map((owner) => isTrustedOwner(owner, trust))).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
  });
});

describe("implicitCallRefusal", () => {
  const body = (chosenBy: OwnerFacts) => ({ chosenBy, kind: "expression" as const });

  it("lets trusted code chosen by a trusted owner run, even volatile and unlisted", () => {
    expect(implicitCallRefusal(routine("label", appOwner), body(appOwner), none, trust)).toBeUndefined();
    expect(implicitCallRefusal(routine("label", asker), body(superuser), none, trust)).toBeUndefined();
  });

  it("judges code another role chose, or another role's code, as a call by name", () => {
    expect(implicitCallRefusal(routine("f", planter), body(planter), none, trust)).toBe("is volatile");
    expect(implicitCallRefusal(routine("f", planter), body(superuser), none, trust)).toBe("is volatile");
    expect(implicitCallRefusal(routine("label", appOwner), body(planter), none, trust)).toBe("is volatile");
    const stable = routine("label", planter, { volatility: "s" });
    expect(implicitCallRefusal(stable, body(planter), none, trust)).toMatch(/not named in NLQ_ALLOWED_FUNCTIONS/);
    expect(implicitCallRefusal(stable, body(planter), new Set(["app.label"]), trust)).toBeUndefined();
  });

  it("refuses the dangerous categories whoever owns and chose them", () => {
    const lock = routine("pg_advisory_lock", superuser, { schema: "pg_catalog", untrustedLanguage: true });
    expect(implicitCallRefusal(lock, body(superuser), none, trust)).toBe("takes or releases advisory locks");
    expect(implicitCallRefusal(lock, { chosenBy: superuser, kind: "io" }, none, trust)).toMatch(/advisory/);
  });

  it("takes a C input/output or cast function as a superuser's choice, but not a C function a planted view calls", () => {
    const cFunction = routine("geometry_out", planter, {
      extension: "postgis",
      untrustedLanguage: true,
      volatility: "i",
    });
    expect(implicitCallRefusal(cFunction, { chosenBy: planter, kind: "io" }, none, trust)).toBeUndefined();
    expect(implicitCallRefusal(cFunction, { chosenBy: planter, kind: "cast" }, none, trust)).toBeUndefined();
    expect(implicitCallRefusal(cFunction, body(planter), none, trust)).toMatch(/extension postgis/);
  });

  it("offers the dangerous categories to SQL as one regular expression over the same names", () => {
    const pattern = new RegExp(dangerousFunctionPattern);
    for (const name of ["dblink_exec", "query_to_xml", "pg_advisory_lock", "set_config", "lo_export", "crosstab2"]) {
      expect(pattern.test(name), name).toBe(true);
    }
    for (const name of ["lower", "db_link_helper", "percentile_cont", "lo"]) {
      expect(pattern.test(name), name).toBe(false);
    }
  });
});

describe("relationProblems", () => {
  const viewOf = (oid: number, name: string, owner: OwnerFacts, edges: RelationFacts["edges"]): RelationFacts => ({
    oid,
    schema: "att",
    name,
    kind: "view",
    onSearchPath: false,
    owner,
    edges,
  });
  const policy = createFunctionPolicy({
    functions: [],
    operators: [],
    asker: "analyst",
    types: [
      {
        oid: 900,
        schema: "att",
        name: "money2",
        onSearchPath: false,
        owner: planter,
        routines: [
          { ...routine("m2t", planter), via: "cast from att.money2 to text", kind: "cast", chosenBy: planter },
        ],
      },
    ],
    relations: [
      viewOf(1, "outer_view", superuser, [{ kind: "relation", via: "its view body", relationOid: 2 }]),
      // Two views reading each other (as policies can): each is walked once.
      viewOf(2, "inner_view", planter, [
        { kind: "routine", via: "its view body", routine: routine("f", planter) },
        { kind: "type", via: "column amt", typeOid: 900 },
        { kind: "relation", via: "its view body", relationOid: 1 },
      ]),
    ],
  });

  it("follows views into the relations they read, naming each relation, owner and function", () => {
    expect(relationProblems(policy, { schema: "att", name: "outer_view" })).toEqual([
      "view att.outer_view (owner postgres), in its view body, reads view att.inner_view (owner att): its view body calls app.f() (owner att), which is volatile",
      "view att.outer_view (owner postgres), in its view body, reads view att.inner_view (owner att): column amt has type att.money2 (owner att), whose cast from att.money2 to text runs app.m2t() (owner att), which is volatile",
    ]);
  });

  it("says which relations a value reader must skip", () => {
    expect(mayReadValues(policy, { schema: "att", table: "inner_view" })).toBe(false);
    expect(mayReadValues(policy, { schema: "public", table: "sales" })).toBe(true);
  });
});
