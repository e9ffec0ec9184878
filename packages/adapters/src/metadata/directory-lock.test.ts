import { spawn } from "node:child_process";
import { existsSync, linkSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { acquireDirectoryLock, DirectoryInUseError } from "./directory-lock";

const root = mkdtempSync(path.join(tmpdir(), "nlq-lock-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("acquireDirectoryLock", () => {
  it("refuses a second open while held and allows it after release", () => {
    const directory = path.join(root, "metadata");
    const lock = acquireDirectoryLock(directory, "test");
    expect(JSON.parse(readFileSync(`${directory}.lock`, "utf8")).pid).toBe(process.pid);
    expect(() => acquireDirectoryLock(directory, "again")).toThrow(DirectoryInUseError);
    expect(() => acquireDirectoryLock(directory, "again")).toThrow(`already open in process ${process.pid} (test)`);
    lock.release();
    lock.release();
    expect(existsSync(`${directory}.lock`)).toBe(false);
    acquireDirectoryLock(directory, "third").release();
  });

  it("takes over a lock left by a process that no longer runs", async () => {
    const directory = path.join(root, "demo");
    const child = spawn(process.execPath, ["-e", ""]);
    const deadPid = child.pid!;
    await new Promise((resolve) => child.once("exit", resolve));
    writeFileSync(`${directory}.lock`, JSON.stringify({ pid: deadPid, purpose: "crashed" }));
    const lock = acquireDirectoryLock(directory, "fresh");
    expect(JSON.parse(readFileSync(`${directory}.lock`, "utf8")).purpose).toBe("fresh");
    lock.release();
  });

  it("takes a stale lock over atomically: never while another process holds its claim on it, never a live one", async () => {
    const directory = path.join(root, "raced");
    const lock = `${directory}.lock`;
    const child = spawn(process.execPath, ["-e", ""]);
    const deadPid = child.pid!;
    await new Promise((resolve) => child.once("exit", resolve));
    writeFileSync(lock, JSON.stringify({ pid: deadPid, purpose: "crashed" }));
    // Another process is taking this stale lock over (its claim, a hard link to the lock, exists): it will remove the
    // lock and create its own; removing it here as well could remove the lock it then creates.
    const claim = `${lock}.stale-${deadPid}-${statSync(lock, { bigint: true }).ino}`;
    linkSync(lock, claim);
    expect(() => acquireDirectoryLock(directory, "late")).toThrow(DirectoryInUseError);
    expect(JSON.parse(readFileSync(lock, "utf8")).purpose).toBe("crashed");
    rmSync(claim);
    const taken = acquireDirectoryLock(directory, "taker");
    expect(JSON.parse(readFileSync(lock, "utf8"))).toMatchObject({ pid: process.pid, purpose: "taker" });
    expect(readdirSync(root).filter((name) => name.startsWith("raced.lock."))).toEqual([]);
    taken.release();
  });

  it("refuses a lock file that names no process rather than removing it", () => {
    const directory = path.join(root, "garbled");
    writeFileSync(`${directory}.lock`, "");
    expect(() => acquireDirectoryLock(directory, "fresh")).toThrow(`delete ${directory}.lock`);
    expect(existsSync(`${directory}.lock`)).toBe(true);
  });
});
