import { ConfigurationError } from "@nlq/engine";
import { describe, expect, it } from "vitest";
import { loadServiceSettings } from "./service-settings";

describe("loadServiceSettings", () => {
  it("applies defaults to an empty environment", () => {
    expect(loadServiceSettings({})).toEqual({
      databaseUrl: undefined,
      demoUrl: undefined,
      home: undefined,
      metadataUrl: undefined,
      migrationsDirectory: undefined,
      modelCacheTimeToLiveSeconds: 604800,
      qdrant: { url: undefined, apiKey: undefined, collectionPrefix: undefined },
      webExampleAdministratorRole: "nlq_example_admin",
    });
  });

  it("reads every variable, trimmed; blank values count as unset", () => {
    expect(
      loadServiceSettings({
        DATABASE_URL: " postgresql://me@db/shop ",
        NLQ_DEMO_URL: "postgresql://me@db/demo",
        NLQ_HOME: "/srv/nlq",
        NLQ_METADATA_URL: "postgres://meta@db/nlq",
        NLQ_MIGRATIONS_DIR: "/srv/migrations",
        NLQ_RESPONSE_CACHE_TTL: " 12h ",
        NLQ_QDRANT_URL: "http://qdrant:6333",
        NLQ_QDRANT_API_KEY: "key",
        NLQ_QDRANT_COLLECTION_PREFIX: "staging_",
        NLQ_WEB_EXAMPLE_ADMIN_ROLE: " curators ",
      }),
    ).toEqual({
      databaseUrl: "postgresql://me@db/shop",
      demoUrl: "postgresql://me@db/demo",
      home: "/srv/nlq",
      metadataUrl: "postgres://meta@db/nlq",
      migrationsDirectory: "/srv/migrations",
      modelCacheTimeToLiveSeconds: 43_200,
      qdrant: { url: "http://qdrant:6333", apiKey: "key", collectionPrefix: "staging_" },
      webExampleAdministratorRole: "curators",
    });
    expect(loadServiceSettings({ NLQ_QDRANT_URL: "  ", NLQ_HOME: "" })).toMatchObject({
      qdrant: { url: undefined },
      home: undefined,
    });
  });

  it("reads NLQ_RESPONSE_CACHE_TTL as seconds: a unit or bare seconds, 0 reuses nothing, never keeps them", () => {
    const ttl = (value: string) => loadServiceSettings({ NLQ_RESPONSE_CACHE_TTL: value }).modelCacheTimeToLiveSeconds;
    expect([ttl("90s"), ttl("30m"), ttl("7d"), ttl("3600"), ttl("0"), ttl("never")]).toEqual([
      90,
      1_800,
      604_800,
      3_600,
      0,
      null,
    ]);
  });

  const refusals: ReadonlyArray<[Record<string, string>, string]> = [
    [
      { NLQ_RESPONSE_CACHE_TTL: "a week" },
      'NLQ_RESPONSE_CACHE_TTL must be a duration such as 90s, 30m, 12h or 7d (or never), got "a week"',
    ],
    [{ NLQ_QDRANT_URL: "qdrant:6333" }, 'NLQ_QDRANT_URL must be an http:// or https:// URL, got "qdrant:6333"'],
    [
      { NLQ_METADATA_URL: "mysql://x@y/z" },
      'NLQ_METADATA_URL must be a postgres:// or postgresql:// URL, got "mysql://x@y/z"',
    ],
  ];
  it.each(refusals)("refuses %j with a message naming the variable and the value", (environment, message) => {
    expect(() => loadServiceSettings(environment)).toThrow(ConfigurationError);
    expect(() => loadServiceSettings(environment)).toThrow(message);
  });

  it("never echoes a password of a refused URL", () => {
    const attempt = () => loadServiceSettings({ NLQ_METADATA_URL: "mysql://me:secret@db/nlq" });
    expect(attempt).toThrow('got "mysql://me:***@db/nlq"');
    expect(attempt).not.toThrow("secret");
  });

  it("names every bad variable in one error, pipeline variables included", () => {
    expect(() => loadServiceSettings({ NLQ_METADATA_URL: "abc", NLQ_ROW_LIMIT: "x" })).toThrow(
      /NLQ_ROW_LIMIT must be .*; NLQ_METADATA_URL must be/,
    );
  });
});
