import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { defaultLearnedRetrievalModel, readLearnedRetrievalModel } from "./default-learned-model";
import { denseFeatureNames } from "./learned-features";
import {
  LearnedModelError,
  learnedModelToJson,
  learnedRetrievalModelFormat,
  parseLearnedRetrievalModel,
} from "./learned-retrieval-model";

const dense = {
  ...Object.fromEntries(denseFeatureNames.map((name) => [name, 0])),
  cosine: 10,
  tableBest: 1,
  databaseBest: 2,
};

describe("learnt retrieval model artefact", () => {
  it("round-trips through its JSON form with sorted sparse keys", () => {
    const model = parseLearnedRetrievalModel({
      format: learnedRetrievalModelFormat,
      version: "test-v1",
      candidateLimit: 50,
      dense,
      sparse: { "c:old|age": 1.5, "c:born|birth": 2 },
      training: { examples: 3 },
    });
    expect(model.sparse.get("c:old|age")).toBe(1.5);
    const json = learnedModelToJson(model);
    expect(Object.keys(json.sparse as object)).toEqual(["c:born|birth", "c:old|age"]);
    expect(parseLearnedRetrievalModel(JSON.parse(JSON.stringify(json)))).toEqual(model);
  });

  it("rejects other files, a missing dense weight and a non-numeric sparse weight", () => {
    const valid = { format: learnedRetrievalModelFormat, version: "v", candidateLimit: 5, dense, sparse: {} };
    expect(() => parseLearnedRetrievalModel({ ...valid, format: "other" })).toThrow(LearnedModelError);
    expect(() => parseLearnedRetrievalModel({ ...valid, dense: { ...dense, cosine: undefined } })).toThrow(/cosine/);
    expect(() => parseLearnedRetrievalModel({ ...valid, sparse: { "p:id": "1" } })).toThrow(/p:id/);
    expect(() => parseLearnedRetrievalModel({ ...valid, candidateLimit: 0 })).toThrow(/candidateLimit/);
  });

  it("reads an artefact from a file and says which file was unreadable", () => {
    const directory = mkdtempSync(path.join(tmpdir(), "nlq-learned-"));
    try {
      const file = path.join(directory, "model.json");
      writeFileSync(
        file,
        JSON.stringify({ format: learnedRetrievalModelFormat, version: "v9", candidateLimit: 7, dense, sparse: {} }),
      );
      expect(readLearnedRetrievalModel(file).version).toBe("v9");
      expect(() => readLearnedRetrievalModel(path.join(directory, "missing.json"))).toThrow(/missing\.json/);
      writeFileSync(file, "{not json");
      expect(() => readLearnedRetrievalModel(file)).toThrow(LearnedModelError);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it("ships retrieval-model-v3 with every dense weight, learnt associations and its training record", () => {
    const model = defaultLearnedRetrievalModel();
    expect(model.version).toBe("retrieval-model-v3");
    expect(Object.keys(model.dense)).toEqual([...denseFeatureNames]);
    expect(model.sparse.size).toBeGreaterThan(1000);
    expect(model.training).toHaveProperty("spiderHeldOutDatabases");
  });
});
