import path from "node:path";
import { describe, expect, it } from "vitest";
import { resolveLauncherSettings } from "./launcher-settings";

describe("resolveLauncherSettings", () => {
  it("defaults to the documented ports and ./.nlq", () => {
    const settings = resolveLauncherSettings({});
    expect(settings).toMatchObject({
      stateDirectory: path.resolve(".nlq"),
      host: "127.0.0.1",
      databaseUrl: undefined,
      metadataUrl: undefined,
      embeddedPort: 54_320,
      proxyPort: 6_432,
      webPort: 3_000,
      web: true,
    });
  });

  it("reads NLQ_HOME, the URLs and every port variable; empty values count as unset", () => {
    const settings = resolveLauncherSettings(
      {
        NLQ_HOME: "/tmp/somewhere",
        DATABASE_URL: "postgresql://me@db:5433/shop",
        NLQ_METADATA_URL: " ",
        NLQ_EMBEDDED_PORT: "1",
        NLQ_PROXY_PORT: "0",
        NLQ_WEB_PORT: "4",
      },
      { web: false },
    );
    expect(settings).toMatchObject({
      stateDirectory: "/tmp/somewhere/.nlq",
      databaseUrl: "postgresql://me@db:5433/shop",
      metadataUrl: undefined,
      embeddedPort: 1,
      proxyPort: 0,
      webPort: 4,
      web: false,
    });
  });

  it("names the variable holding a bad port", () => {
    expect(() => resolveLauncherSettings({ NLQ_WEB_PORT: "80a" })).toThrow(/NLQ_WEB_PORT must be a TCP port/);
    expect(() => resolveLauncherSettings({ NLQ_PROXY_PORT: "70000" })).toThrow(/NLQ_PROXY_PORT/);
    expect(() => resolveLauncherSettings({ NLQ_EMBEDDED_PORT: "-1" })).toThrow(
      'NLQ_EMBEDDED_PORT must be a TCP port number (0-65535), got "-1"',
    );
  });
});
