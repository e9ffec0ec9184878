import { describe, expect, it } from "vitest";
import { BackgroundValueIndexes } from "./background-value-index";

describe("BackgroundValueIndexes", () => {
  it("never throws on a failed build, and retries after 1 minute, then 2, then 4 (backing off up to an hour)", async () => {
    let now = 0;
    const indexes = new BackgroundValueIndexes({}, () => now);
    let attempts = 0;
    const connect = async () => {
      attempts += 1;
      throw new Error("password authentication failed");
    };
    expect(indexes.use("db", connect).status).toBe("building");
    await indexes.settled("db");
    expect(indexes.use("db", connect).status).toBe("failed");
    expect(attempts).toBe(1);
    for (const [wait, expected] of [
      [61_000, 2],
      [61_000, 2], // the second failure waits 2 minutes
      [121_000, 3],
      [200_000, 3], // the third waits 4
      [241_000, 4],
    ] as const) {
      now += wait;
      indexes.use("db", connect);
      await indexes.settled("db");
      expect(attempts).toBe(expected);
    }
  });

  it("keeps at most maxIndexes indexes, dropping the least recently used", async () => {
    const indexes = new BackgroundValueIndexes({ maxIndexes: 2 });
    const builds: string[] = [];
    const connect = (key: string) => async () => {
      builds.push(key);
      throw new Error("no server");
    };
    for (const key of ["a", "b", "a", "c", "b"]) {
      indexes.use(key, connect(key));
      await indexes.settled(key);
    }
    // "b" was dropped when "c" came (after "a" was used again), so it starts over; "a" failed a moment ago: no retry.
    expect(builds).toEqual(["a", "b", "c", "b"]);
  });
});
