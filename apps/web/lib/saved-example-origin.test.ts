import { describe, expect, it } from "vitest";
import { savedExampleOrigin } from "./saved-example-origin";

describe("savedExampleOrigin", () => {
  it("keeps a picked reading the role's own, even for an administrator, without asking", async () => {
    let asked = false;
    const origin = await savedExampleOrigin(true, async () => {
      asked = true;
      return true;
    });
    expect(origin).toEqual({ source: "accepted", sharedWithAllRoles: false });
    expect(asked).toBe(false);
  });

  it("shares a correction when an administrator saves it", async () => {
    expect(await savedExampleOrigin(false, async () => true)).toEqual({
      source: "corrected",
      sharedWithAllRoles: true,
    });
    expect(await savedExampleOrigin(false, async () => false)).toEqual({
      source: "corrected",
      sharedWithAllRoles: false,
    });
  });
});
