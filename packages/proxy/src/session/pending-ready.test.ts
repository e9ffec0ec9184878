import { describe, expect, it } from "vitest";
import { PendingReady } from "./pending-ready";

describe("PendingReady", () => {
  it("owes one fewer per ReadyForQuery received, never below none", () => {
    const pending = new PendingReady();
    pending.expect();
    pending.expect();
    expect(pending.received()).toBe(false);
    expect(pending.received()).toBe(true);
    expect(pending.received()).toBe(true);
    expect(pending.count).toBe(0);
  });

  it("forgets the Syncs PostgreSQL ignores during a COPY, and releases the waiters at none", async () => {
    const pending = new PendingReady();
    pending.expect();
    pending.expect();
    let idle = false;
    const waiting = pending.whenIdle().then(() => (idle = true));
    pending.ignore(1);
    await Promise.resolve();
    expect(pending.count).toBe(1);
    expect(idle).toBe(false);
    pending.ignore(3);
    await waiting;
    expect(pending.count).toBe(0);
    expect(idle).toBe(true);
  });
});
