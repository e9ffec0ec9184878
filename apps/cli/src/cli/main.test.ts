import { afterAll, describe, expect, it } from "vitest";
import { killSpawnedNlqProcesses, spawnNlq } from "./nlq-process.test-helpers";

afterAll(killSpawnedNlqProcesses);

describe("nlq's exit codes", () => {
  it.each([
    [["start", "--port", "5"], 2, "error: unknown option '--port'"],
    [["ask"], 2, "error: missing required argument 'question'"],
    [["ask", "--help"], 0, "Usage: nlq ask [options] <question>"],
  ])("nlq %j exits %i", async (argv, exitCode, output) => {
    const started = spawnNlq(argv, {});
    expect(await started.exited).toBe(exitCode);
    expect(started.output()).toContain(output);
  });
});
