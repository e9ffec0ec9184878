import { describe, expect, it } from "vitest";
import { createExclusiveQueue } from "./role-session";

describe("createExclusiveQueue", () => {
  it("runs one unit of work at a time, in order, and a failure does not stop the next", async () => {
    const exclusive = createExclusiveQueue();
    let active = 0;
    let most = 0;
    const order: number[] = [];
    const work = (value: number, fail = false) =>
      exclusive(async () => {
        active += 1;
        most = Math.max(most, active);
        await new Promise((resolve) => setTimeout(resolve, 5));
        order.push(value);
        active -= 1;
        if (fail) throw new Error(`failed ${value}`);
        return value;
      });
    const results = await Promise.allSettled([work(1), work(2, true), work(3)]);
    expect(most).toBe(1);
    expect(order).toEqual([1, 2, 3]);
    expect(results.map((result) => result.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
  });
});
