import { spawn, spawnSync } from "node:child_process";
import { existsSync, linkSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, describe, expect, it } from "vitest";
import {
  lifetimeLockFile,
  liveUsers,
  registerUser,
  takeOverStaleLock,
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

describe("taking over a stale lifetime lock", () => {
  it("never removes a live lock on an out-of-date observation of a dead holder (the takeover race)", () => {
    const lock = lifetimeLockFile(directory);
    const dead = deadProcessId();
    writeFileSync(lock, String(dead));
    // Processes A and B both read the lock and saw `dead`. A takes it over and creates its own lock...
    expect(takeOverStaleLock(lock, dead)).toBe(true);
    expect(existsSync(lock)).toBe(false);
    writeFileSync(lock, String(process.pid));
    // ...then B acts on what it read: the live lock must stay, and B must not believe it took anything over.
    expect(takeOverStaleLock(lock, dead)).toBe(false);
    expect(readFileSync(lock, "utf8")).toBe(String(process.pid));
    // While one taker holds its claim on a stale lock, another taker of the same lock gets nothing.
    rmSync(lock);
    writeFileSync(lock, String(dead));
    const claim = `${lock}.stale-${dead}-${statSync(lock, { bigint: true }).ino}`;
    linkSync(lock, claim);
    expect(takeOverStaleLock(lock, dead)).toBe(false);
    expect(readFileSync(lock, "utf8")).toBe(String(dead));
    rmSync(claim);
    expect(takeOverStaleLock(lock, dead)).toBe(true);
    expect(readdirSync(path.dirname(lock)).filter((name) => name.includes(".stale-"))).toEqual([]);
  });

  it("refuses to take over a lock whose holder runs, or one held by nobody it can name", () => {
    const lock = lifetimeLockFile(directory);
    writeFileSync(lock, String(process.ppid));
    expect(takeOverStaleLock(lock, process.ppid)).toBe(false);
    expect(readFileSync(lock, "utf8")).toBe(String(process.ppid));
    rmSync(lock);
    expect(takeOverStaleLock(lock, deadProcessId())).toBe(false);
  });

  it("gives the lock to one process at a time when several real processes race to take over the same stale lock", async () => {
    const raceDirectory = path.join(home, "race", "postgres");
    const log = path.join(home, "race.log");
    await withLifetimeLock(raceDirectory, async () => {});
    writeFileSync(lifetimeLockFile(raceDirectory), String(deadProcessId()));
    writeFileSync(log, "");
    const script = path.resolve(import.meta.dirname, "server-users.test-process.ts");
    const startAt = String(Date.now() + 4_000);
    const exits = Array.from({ length: 4 }, () => {
      const child = spawn(process.execPath, ["--import", "tsx", script, raceDirectory, log, startAt, "3"], {
        stdio: ["ignore", "ignore", "pipe"],
      });
      let errors = "";
      child.stderr.on("data", (chunk: Buffer) => {
        errors += chunk.toString();
      });
      return new Promise<string>((resolve) => child.once("exit", (code) => resolve(`${code} ${errors}`.trim())));
    });
    expect(await Promise.all(exits)).toEqual(Array(4).fill("0"));
    const lines = readFileSync(log, "utf8").trim().split("\n");
    expect(lines).toHaveLength(4 * 3 * 2);
    for (let line = 0; line < lines.length; line += 2) {
      const holder = lines[line]?.replace(/^in /, "");
      expect([lines[line], lines[line + 1]]).toEqual([`in ${holder}`, `out ${holder}`]);
    }
    expect(existsSync(lifetimeLockFile(raceDirectory))).toBe(false);
    expect(readdirSync(path.dirname(raceDirectory)).filter((name) => name !== "postgres.users")).toEqual([]);
  }, 60_000);
});
