import { describe, expect, it } from "vitest";
import { loadServiceSettings } from "../config/service-settings";
import { startFakeQdrantServer } from "../testing/fake-qdrant-server";
import { createVectorStore } from "./create-vector-store";

describe("createVectorStore", () => {
  it("is embedded when no Qdrant URL is configured", () => {
    expect(createVectorStore({ qdrant: loadServiceSettings({}).qdrant }).name).toBe("embedded");
    expect(createVectorStore({ qdrant: loadServiceSettings({ NLQ_QDRANT_URL: "  " }).qdrant }).name).toBe("embedded");
  });

  it("is Qdrant when NLQ_QDRANT_URL is set, with the key and prefix from the environment", async () => {
    const server = await startFakeQdrantServer();
    try {
      const store = createVectorStore({
        qdrant: loadServiceSettings({
          NLQ_QDRANT_URL: server.url,
          NLQ_QDRANT_API_KEY: "k1",
          NLQ_QDRANT_COLLECTION_PREFIX: "p_",
        }).qdrant,
      });
      expect(store.name).toBe("qdrant");
      await store.ensureCollection({ collection: "source", dimensions: 4 });
      expect(server.requests[0]!.path).toBe("/collections/p_source/exists");
      expect(server.requests[0]!.headers["api-key"]).toBe("k1");
    } finally {
      await server.close();
    }
  });

  it("is Qdrant with an explicit URL alone", () => {
    expect(createVectorStore({ qdrant: { url: "http://127.0.0.1:6333" } }).name).toBe("qdrant");
  });
});
