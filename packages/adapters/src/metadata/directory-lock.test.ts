import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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
});
