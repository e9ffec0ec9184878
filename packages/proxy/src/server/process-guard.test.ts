import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

/** Runs `body` in a child Node process with the guard installed; returns its output and exit code. */
function runGuarded(body: string, guard = true): { output: string; status: number | null } {
  const script = [
    `import { installProcessGuard } from ${JSON.stringify(path.join(import.meta.dirname, "process-guard.ts"))};`,
    `import { consoleLogger } from ${JSON.stringify(path.join(import.meta.dirname, "proxy-logger.ts"))};`,
    guard ? "installProcessGuard(consoleLogger);" : "",
    body,
    "setTimeout(() => console.log('still serving'), 100);",
  ].join("\n");
  const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    encoding: "utf8",
    timeout: 30_000,
  });
  return { output: `${child.stdout}${child.stderr}`, status: child.status };
}

describe("installProcessGuard", () => {
  it("logs an uncaught exception and an unhandled rejection and keeps the process serving", () => {
    const guarded = runGuarded(
      "setTimeout(() => { throw new Error('thrown from a callback'); }); Promise.reject(new Error('rejected'));",
    );
    expect(guarded.status).toBe(0);
    expect(guarded.output).toContain("uncaught exception (kept serving)");
    expect(guarded.output).toContain("thrown from a callback");
    expect(guarded.output).toContain("unhandled rejection (kept serving)");
    expect(guarded.output).toContain("still serving");
  });

  it("is what keeps it alive: without it the same error ends the process", () => {
    const unguarded = runGuarded("setTimeout(() => { throw new Error('thrown from a callback'); });", false);
    expect(unguarded.status).not.toBe(0);
    expect(unguarded.output).not.toContain("still serving");
  });
});
