import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { spawnProcessGroup } from "./child-process-group";

/** Running (a zombie waiting for a reaper that never comes, in containers without init, counts as gone). */
function isAlive(pid: number): boolean {
  try {
    const state = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0];
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}

describe("spawnProcessGroup", () => {
  it("forwards output lines and stops the child together with its own children", async () => {
    const lines: string[] = [];
    // A shell that starts a grandchild ignoring nothing, prints its pid, and waits.
    const group = spawnProcessGroup("sh", ["-c", "sleep 60 & echo grandchild $!; echo ready; wait"], {
      cwd: process.cwd(),
      environment: process.env,
      onLine: (line) => lines.push(line),
    });
    while (!lines.includes("ready")) await new Promise((resolve) => setTimeout(resolve, 20));
    const grandchild = Number(lines.find((line) => line.startsWith("grandchild"))?.split(" ")[1]);
    expect(isAlive(grandchild)).toBe(true);
    await group.stop(2_000);
    expect(await group.exited).toBe(143);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(isAlive(grandchild)).toBe(false);
    await group.stop(); // idempotent
  });

  it("kills a child that ignores SIGTERM after the grace period", async () => {
    const lines: string[] = [];
    const group = spawnProcessGroup("sh", ["-c", "trap '' TERM; echo ready; while true; do sleep 0.1; done"], {
      cwd: process.cwd(),
      environment: process.env,
      onLine: (line) => lines.push(line),
    });
    while (!lines.includes("ready")) await new Promise((resolve) => setTimeout(resolve, 20));
    const started = Date.now();
    await group.stop(300);
    expect(await group.exited).toBe("SIGKILL");
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("ends the group when the process that started it dies without stopping it", async () => {
    // A parent that starts a group, prints the group's pid, then is killed with SIGKILL.
    const parentScript = [
      `import { spawnProcessGroup } from ${JSON.stringify(path.join(import.meta.dirname, "child-process-group.ts"))};`,
      `const group = spawnProcessGroup("sh", ["-c", "echo ready; sleep 60"], { cwd: process.cwd(), environment: process.env, onLine: (line) => console.log(line) });`,
      "console.log('group ' + group.child.pid);",
    ].join("\n");
    const parent = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", parentScript], {
      cwd: process.cwd(),
      stdio: ["ignore", "pipe", "inherit"],
    });
    let output = "";
    parent.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    const deadline = Date.now() + 30_000;
    while (!(output.includes("ready") && output.includes("group "))) {
      if (Date.now() > deadline) throw new Error(`parent did not start the group: ${output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const groupLeader = Number(/group (\d+)/.exec(output)?.[1]);
    expect(isAlive(groupLeader)).toBe(true);
    parent.kill("SIGKILL");
    const stopDeadline = Date.now() + 10_000;
    while (isAlive(groupLeader) && Date.now() < stopDeadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(isAlive(groupLeader)).toBe(false);
  }, 60_000);
});
