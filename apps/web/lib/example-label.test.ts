import { describe, expect, it } from "vitest";
import { exampleLabel } from "./examples-for-user";

describe("how /examples words a verified pair", () => {
  it("says a confirmed reading was picked from N readings, by you for the viewer's own", () => {
    const picked = { source: "picked", provenance: "picked from 3 readings by max", verifiedBy: "max" };
    expect(exampleLabel(picked, "max")).toBe("picked from 3 readings by you");
    expect(exampleLabel({ ...picked, provenance: "picked from 1 reading by max" }, "max")).toBe(
      "picked from 1 reading by you",
    );
  });

  it("never names another role: an administrator's shared pair names nobody", () => {
    const shared = { source: "picked", provenance: "picked from 2 readings by nlq_admin", verifiedBy: "nlq_admin" };
    expect(exampleLabel(shared, "max")).toBe("picked from 2 readings");
    expect(exampleLabel(shared, "max")).not.toContain("nlq_admin");
    expect(exampleLabel({ source: "admin", provenance: null, verifiedBy: "nlq_admin" }, "max")).toBe("edited");
  });

  it("keeps thumbs-ups and corrections as they were", () => {
    expect(exampleLabel({ source: "accepted", provenance: null, verifiedBy: "max" }, "max")).toBe("accepted by you");
    expect(exampleLabel({ source: "corrected", provenance: null, verifiedBy: "max" }, "max")).toBe("corrected by you");
  });
});
