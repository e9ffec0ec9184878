import { describe, expect, it } from "vitest";
import { describeResidue, newResidue, parseResidue, resetStatements, type SessionResidue } from "./session-residue";

const empty: SessionResidue = {
  advisoryLocks: [],
  preparedStatements: [],
  temporaryRelations: [],
  dblinkConnections: [],
};

describe("session residue (pure)", () => {
  it("parses the JSON cells and keeps only what is new", () => {
    const before = parseResidue(['["0:7:1:ExclusiveLock"]', '["mine"]', null, '["own"]']);
    const after = parseResidue([
      '["0:7:1:ExclusiveLock", "0:7020:1:ExclusiveLock"]',
      '["mine", "left"]',
      '["16384"]',
      '["own", "open"]',
    ]);
    expect(newResidue(before, after)).toEqual({
      advisoryLocks: ["0:7020:1:ExclusiveLock"],
      preparedStatements: ["left"],
      temporaryRelations: ["16384"],
      dblinkConnections: ["open"],
    });
    expect(newResidue(after, after)).toEqual(empty);
  });

  it("names advisory keys as the SQL that took them: one bigint (objsubid 1) or two integers (objsubid 2)", () => {
    const residue = {
      ...empty,
      // -5000000000 is classid 4294967294, objid 3589934592; (3, -4) is classid 3, objid 4294967292.
      advisoryLocks: ["4294967294:3589934592:1:ExclusiveLock", "3:4294967292:2:ShareLock"],
    };
    expect(describeResidue(residue)).toEqual(["advisory lock -5000000000", "advisory lock (3, -4)"]);
    const statements = resetStatements(residue, null);
    expect(statements[0]).toContain("pg_catalog.pg_advisory_unlock(-5000000000::bigint)");
    expect(statements[1]).toContain("pg_catalog.pg_advisory_unlock_shared(3, -4)");
  });

  it("disconnects dblink connections by name in dblink's schema and deallocates with quoted names", () => {
    const residue = { ...empty, dblinkConnections: ["it's"], preparedStatements: ['odd "name"'] };
    expect(resetStatements(residue, "ext schema")).toEqual([
      `SELECT "ext schema".dblink_disconnect('it''s')`,
      `DEALLOCATE "odd ""name"""`,
    ]);
  });

  it("writes a dblink name holding a backslash as an E'' literal, so standard_conforming_strings = off cannot end it", () => {
    const residue = { ...empty, dblinkConnections: ["x\\'); SELECT 1; --"] };
    expect(resetStatements(residue, "public")).toEqual([
      `SELECT "public".dblink_disconnect(E'x\\\\''); SELECT 1; --')`,
    ]);
  });
});
