import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repository = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");

/**
 * The C side of the relay's rules: scripts/test-native-relay.mjs builds packages/proxy/native/test/relay-rules-test.c with
 * AddressSanitizer and UndefinedBehaviorSanitizer and runs it over relay-rules.vectors.json (the table
 * relay-rules-vectors.test.ts checks the TypeScript rules against), then a fuzz loop with a fixed seed. Required: where
 * the relay cannot be built (no C compiler, no Node headers), this fails rather than passing unchecked.
 */
describe("the native relay's rules in C (sanitized build)", () => {
  it("agree with every vector and survive the fuzz loop under AddressSanitizer and UBSan", () => {
    const result = spawnSync(process.execPath, ["scripts/test-native-relay.mjs", "--sanitize", "--require"], {
      cwd: repository,
      encoding: "utf8",
      timeout: 240_000,
    });
    const output = `${result.stdout}\n${result.stderr}`;
    expect(result.status, output).toBe(0);
    expect(output).toMatch(/relay-rules-test: \d+ marker and head vectors, \d+ stream vectors, .* 0 failed/);
  }, 300_000);
});
