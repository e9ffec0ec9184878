import { ConfigurationError } from "@nlq/engine";
import { describe, expect, it } from "vitest";
import { loadWebSettings } from "./web-settings";

describe("loadWebSettings", () => {
  it("applies defaults to an empty environment", () => {
    expect(loadWebSettings({})).toEqual({
      databaseUrl: undefined,
      demoUrl: undefined,
      home: undefined,
      metadataUrl: undefined,
      migrationsDirectory: undefined,
      modelCacheTimeToLiveSeconds: 604800,
      qdrant: { url: undefined, apiKey: undefined, collectionPrefix: undefined },
      webPoolSize: 10,
      webSingleUser: false,
      webSessionIdleMinutes: 30,
      webExampleAdministratorRole: "nlq_example_admin",
    });
  });

  it("reads every variable, trimmed", () => {
    expect(
      loadWebSettings({
        DATABASE_URL: "postgresql://me@db/shop",
        NLQ_WEB_POOL_SIZE: "3",
        NLQ_WEB_SINGLE_USER: "on",
        NLQ_WEB_SESSION_IDLE_MINUTES: "5",
        NLQ_WEB_EXAMPLE_ADMIN_ROLE: " curators ",
      }),
    ).toMatchObject({
      databaseUrl: "postgresql://me@db/shop",
      webPoolSize: 3,
      webSingleUser: true,
      webSessionIdleMinutes: 5,
      webExampleAdministratorRole: "curators",
    });
  });

  const refusals: ReadonlyArray<[Record<string, string>, string]> = [
    [{ NLQ_WEB_POOL_SIZE: "abc" }, 'NLQ_WEB_POOL_SIZE must be a whole number ≥ 1, got "abc"'],
    [{ NLQ_WEB_POOL_SIZE: "0" }, 'NLQ_WEB_POOL_SIZE must be a whole number ≥ 1, got "0"'],
    [{ NLQ_WEB_SINGLE_USER: "maybe" }, 'NLQ_WEB_SINGLE_USER must be on or off, got "maybe"'],
  ];
  it.each(refusals)("refuses %j with a message naming the variable and the value", (environment, message) => {
    expect(() => loadWebSettings(environment)).toThrow(ConfigurationError);
    expect(() => loadWebSettings(environment)).toThrow(message);
  });

  it("names every bad variable in one error, the pipeline's and the shared ones included", () => {
    expect(() =>
      loadWebSettings({ NLQ_WEB_POOL_SIZE: "abc", NLQ_ROW_LIMIT: "x", NLQ_METADATA_URL: "mysql://x@y/z" }),
    ).toThrow(/NLQ_ROW_LIMIT must be .*; NLQ_METADATA_URL must be .*; NLQ_WEB_POOL_SIZE must be/);
  });
});
