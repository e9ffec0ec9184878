import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { killSpawnedNlqProcesses, spawnNlq } from "./nlq-process.test-helpers";
import { nlqVersion } from "./nlq-version";

afterAll(killSpawnedNlqProcesses);

describe("nlq --version", () => {
  it("prints the package's version and exits 0", async () => {
    const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
    expect(nlqVersion()).toBe(manifest.version);
    for (const flag of ["--version", "-V"]) {
      const started = spawnNlq([flag], {});
      expect(await started.exited).toBe(0);
      expect(started.output().trim()).toBe(manifest.version);
    }
  });
});
