import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LlmCacheKeyExposedError, llmCacheIntegrityKey } from "./llm-cache-integrity";

let home: string;
let state: string;
let keyFile: string;
beforeEach(() => {
  home = mkdtempSync(path.join(tmpdir(), "nlq-llm-cache-integrity-"));
  state = path.join(home, ".nlq");
  keyFile = path.join(state, "llm-cache.key");
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe("the LLM cache key is checked each time it is read, as ssh checks a private key", () => {
  it("refuses a key open to group or others, then accepts it once it is private again", () => {
    const key = llmCacheIntegrityKey(state);
    for (const mode of [0o644, 0o640, 0o604, 0o620]) {
      chmodSync(keyFile, mode);
      expect(() => llmCacheIntegrityKey(state)).toThrow(LlmCacheKeyExposedError);
    }
    chmodSync(keyFile, 0o644);
    expect(() => llmCacheIntegrityKey(state)).toThrow(/llm-cache\.key is open to group or others \(mode 0644/);
    chmodSync(keyFile, 0o600);
    expect(llmCacheIntegrityKey(state).equals(key)).toBe(true);
    chmodSync(keyFile, 0o400);
    expect(llmCacheIntegrityKey(state).equals(key)).toBe(true);
  });

  it("refuses a key file that is a symbolic link, even to a private key", () => {
    llmCacheIntegrityKey(path.join(home, "elsewhere"));
    llmCacheIntegrityKey(state);
    rmSync(keyFile);
    symlinkSync(path.join(home, "elsewhere", "llm-cache.key"), keyFile);
    expect(() => llmCacheIntegrityKey(state)).toThrow(/is a symbolic link/);
  });

  it("refuses a key path that is no regular file", () => {
    mkdirSync(keyFile, { recursive: true });
    expect(() => llmCacheIntegrityKey(state)).toThrow(/llm-cache\.key is not a regular file/);
  });

  it.runIf(process.getuid?.() === 0)("refuses a key another user owns (root only: chown)", () => {
    const key = llmCacheIntegrityKey(state);
    chownSync(keyFile, 65534, 65534);
    expect(() => llmCacheIntegrityKey(state)).toThrow(/belongs to user id 65534, not to this user \(0\)/);
    chownSync(keyFile, 0, 0);
    expect(llmCacheIntegrityKey(state).equals(key)).toBe(true);
  });
});
