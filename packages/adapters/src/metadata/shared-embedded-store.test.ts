import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, describe, expect, it } from "vitest";
import { runningServer } from "../embedded-postgres/server-status";

const home = mkdtempSync(path.join(tmpdir(), "nlq-shared-store-"));
const serverDirectory = path.join(home, ".nlq", "postgres");
const script = path.resolve(import.meta.dirname, "metadata-store-user.test-process.ts");
const spawned = new Set<ChildProcess>();

afterAll(() => {
  for (const child of spawned) child.kill("SIGKILL");
  rmSync(home, { recursive: true, force: true });
});

/** A real separate process using the default (embedded) metadata store of `home`, driven line by line. */
interface StoreUser {
  readonly child: ChildProcess;
  /** Sends a command and resolves with the next line it prints. */
  send(command: string): Promise<string>;
  readonly exited: Promise<number | null>;
}

async function startUser(): Promise<StoreUser> {
  const child = spawn(process.execPath, ["--import", "tsx", script, home], { stdio: ["pipe", "pipe", "pipe"] });
  spawned.add(child);
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => {
      spawned.delete(child);
      resolve(code);
    }),
  );
  let buffered = "";
  let errors = "";
  const waiting: ((line: string) => void)[] = [];
  child.stderr?.on("data", (chunk: Buffer) => {
    errors += chunk.toString();
  });
  child.stdout?.on("data", (chunk: Buffer) => {
    buffered += chunk.toString();
    for (let end = buffered.indexOf("\n"); end >= 0; end = buffered.indexOf("\n")) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      waiting.shift()?.(line);
    }
  });
  const nextLine = () =>
    new Promise<string>((resolve, reject) => {
      waiting.push(resolve);
      void exited.then((code) => reject(new Error(`the store user exited (${code}): ${errors}`)));
    });
  expect(await nextLine()).toBe("open");
  return {
    child,
    exited,
    send(command) {
      const line = nextLine();
      child.stdin?.write(`${command}\n`);
      return line;
    },
  };
}

describe("the embedded metadata store shared by processes with one NLQ_HOME", () => {
  it("outlives the process that started it until the last user leaves", async () => {
    const starter = await startUser();
    const other = await startUser();
    const server = runningServer(serverDirectory);
    expect(server?.users.map((user) => user.processId).sort()).toEqual([starter.child.pid, other.child.pid].sort());
    expect(await starter.send("record from the starter")).toBe("recorded");

    // The process that started the server leaves: the other keeps working on the same server.
    expect(await starter.send("close")).toBe("closed");
    expect(await starter.exited).toBe(0);
    expect(runningServer(serverDirectory)?.serverProcessId).toBe(server?.serverProcessId);
    expect(await other.send("record from the other")).toBe("recorded");
    expect(await other.send("count")).toBe("count 2");

    // The last user leaves: the server stops.
    expect(await other.send("close")).toBe("closed");
    expect(await other.exited).toBe(0);
    expect(runningServer(serverDirectory)).toBeUndefined();
  }, 120_000);

  it("keeps serving the others when its starter is killed, and stops when the survivors leave", async () => {
    const starter = await startUser();
    const other = await startUser();
    starter.child.kill("SIGKILL");
    await starter.exited;
    expect(await other.send("count")).toBe("count 2");
    // A newcomer joins the running server (its starter's registration is stale), not a new one.
    const serverProcessId = runningServer(serverDirectory)?.serverProcessId;
    const newcomer = await startUser();
    expect(runningServer(serverDirectory)?.serverProcessId).toBe(serverProcessId);
    expect(await other.send("close")).toBe("closed");
    expect(await newcomer.send("record after both others")).toBe("recorded");
    expect(await newcomer.send("close")).toBe("closed");
    await Promise.all([other.exited, newcomer.exited]);
    expect(runningServer(serverDirectory)).toBeUndefined();
  }, 120_000);

  it("leaves behind no server when its only user exits without closing the store", async () => {
    const only = await startUser();
    const serverProcessId = runningServer(serverDirectory)?.serverProcessId;
    expect(serverProcessId).toBeDefined();
    only.child.stdin?.write("exit\n");
    expect(await only.exited).toBe(3);
    const deadline = Date.now() + 30_000;
    while (runningServer(serverDirectory) !== undefined && Date.now() < deadline) await sleep(100);
    expect(runningServer(serverDirectory)).toBeUndefined();
  }, 120_000);
});
