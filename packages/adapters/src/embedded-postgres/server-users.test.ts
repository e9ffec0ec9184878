import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, describe, expect, it } from "vitest";
import {
  lifetimeLockFile,
  liveUsers,
  registerUser,
  unregisterUser,
  usersDirectory,
  withLifetimeLock,
} from "./server-users";

const home = mkdtempSync(path.join(tmpdir(), "nlq-server-users-"));
const directory = path.join(home, ".nlq", "postgres");
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** The id of a process that has exited. */
function deadProcessId(): number {
  return Number(
    spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout,
  );
}

describe("the embedded server's users", () => {
  it("lists the registered processes that still run and drops the registrations of those that died", () => {
    registerUser(directory, "this test");
    registerUser(directory, "a parent", process.ppid);
    const dead = deadProcessId();
    registerUser(directory, "a crashed nlq", dead);
    expect(liveUsers(directory)).toEqual(
      expect.arrayContaining([
        { processId: process.pid, purpose: "this test" },
        { processId: process.ppid, purpose: "a parent" },
      ]),
    );
    expect(liveUsers(directory)).toHaveLength(2);
    expect(existsSync(path.join(usersDirectory(directory), String(dead)))).toBe(false);
    unregisterUser(directory);
    unregisterUser(directory, process.ppid);
    expect(liveUsers(directory)).toEqual([]);
  });

  it("runs one holder of the lifetime lock at a time, and takes over a lock whose holder died", async () => {
    const order: string[] = [];
    await Promise.all([
      withLifetimeLock(directory, async () => {
        order.push("first in");
        await sleep(200);
        order.push("first out");
      }),
      (async () => {
        await sleep(20);
        await withLifetimeLock(directory, async () => {
          order.push("second in");
        });
      })(),
    ]);
    expect(order).toEqual(["first in", "first out", "second in"]);
    expect(existsSync(lifetimeLockFile(directory))).toBe(false);

    writeFileSync(lifetimeLockFile(directory), String(deadProcessId()));
    const started = Date.now();
    expect(await withLifetimeLock(directory, async () => "taken over")).toBe("taken over");
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
