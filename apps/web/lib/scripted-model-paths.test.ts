import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { resolveScriptedModelPaths } from "./scripted-model-paths";

const root = mkdtempSync(path.join(tmpdir(), "nlq-web-model-paths-"));
mkdirSync(path.join(root, "fixtures"));
mkdirSync(path.join(root, "apps", "web", "local"), { recursive: true });
writeFileSync(path.join(root, "fixtures", "demo-model.json"), "{}");
writeFileSync(path.join(root, "apps", "web", "local", "mine.json"), "{}");
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("resolveScriptedModelPaths", () => {
  const web = path.join(root, "apps", "web");

  it("finds a root-relative fixture from apps/web", () => {
    const environment = resolveScriptedModelPaths({ NLQ_MODEL: "scripted:fixtures/demo-model.json", OTHER: "x" }, web);
    expect(environment).toEqual({
      NLQ_MODEL: `scripted:${path.join(root, "fixtures", "demo-model.json")}`,
      OTHER: "x",
    });
  });

  it("prefers a path that exists from the working directory and handles step models", () => {
    const environment = resolveScriptedModelPaths({ NLQ_MODEL_GENERATE: "scripted:local/mine.json" }, web);
    expect(environment.NLQ_MODEL_GENERATE).toBe(`scripted:${path.join(web, "local", "mine.json")}`);
  });

  it("leaves real providers, absolute paths and missing files alone", () => {
    const environment = {
      NLQ_MODEL: "openai:gpt-4o-mini",
      NLQ_MODEL_FIX: "scripted:/abs/x.json",
      NLQ_MODEL_SELECT: "scripted:nowhere.json",
    };
    expect(resolveScriptedModelPaths(environment, web)).toEqual(environment);
  });
});
