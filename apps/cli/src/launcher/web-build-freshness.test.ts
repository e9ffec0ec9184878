import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { webBuildIsStale } from "./web-build-freshness";

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A repository-shaped tree: apps/web with a build, packages/engine/src. Times in seconds since the epoch. */
function repository(times: { build?: number; page: number; core: number }): { web: string; core: string } {
  const root = mkdtempSync(path.join(tmpdir(), "nlq-web-build-"));
  roots.push(root);
  const web = path.join(root, "apps", "web");
  const core = path.join(root, "packages", "engine", "src");
  mkdirSync(path.join(web, "app"), { recursive: true });
  mkdirSync(core, { recursive: true });
  writeFileSync(path.join(web, "app", "page.tsx"), "page");
  utimesSync(path.join(web, "app", "page.tsx"), times.page, times.page);
  writeFileSync(path.join(core, "index.ts"), "core");
  utimesSync(path.join(core, "index.ts"), times.core, times.core);
  for (const folder of [path.join(web, "app"), core]) utimesSync(folder, 1_000, 1_000);
  if (times.build !== undefined) {
    mkdirSync(path.join(web, ".next"));
    writeFileSync(path.join(web, ".next", "BUILD_ID"), "id");
    utimesSync(path.join(web, ".next", "BUILD_ID"), times.build, times.build);
  }
  return { web, core };
}

describe("webBuildIsStale", () => {
  it("is stale when the app was never built", () => {
    expect(webBuildIsStale(repository({ page: 1_000, core: 1_000 }).web)).toBe(true);
  });

  it("is fresh when every source is older than the build", () => {
    expect(webBuildIsStale(repository({ build: 2_000, page: 1_000, core: 1_000 }).web)).toBe(false);
  });

  it("is stale when a page changed after the build", () => {
    expect(webBuildIsStale(repository({ build: 2_000, page: 3_000, core: 1_000 }).web)).toBe(true);
  });

  it("is stale when the bundled core changed after the build", () => {
    expect(webBuildIsStale(repository({ build: 2_000, page: 1_000, core: 3_000 }).web)).toBe(true);
  });

  it("is stale when a component changed after the build", () => {
    const { web } = repository({ build: 2_000, page: 1_000, core: 1_000 });
    mkdirSync(path.join(web, "components"));
    writeFileSync(path.join(web, "components", "chat.tsx"), "chat");
    utimesSync(path.join(web, "components", "chat.tsx"), 3_000, 3_000);
    utimesSync(path.join(web, "components"), 1_000, 1_000);
    expect(webBuildIsStale(web)).toBe(true);
  });
});
