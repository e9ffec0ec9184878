import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../errors";
import { loadServiceSettings } from "./service-settings";

describe("loadServiceSettings", () => {
  it("applies defaults to an empty environment", () => {
    expect(loadServiceSettings({})).toEqual({
      databaseUrl: undefined,
      demoUrl: undefined,
      home: undefined,
      metadataUrl: undefined,
      migrationsDirectory: undefined,
      qdrant: { url: undefined, apiKey: undefined, collectionPrefix: undefined },
      webPoolSize: 10,
      webSingleUser: false,
      webSessionIdleMinutes: 30,
      webExampleAdministratorRole: "nlq_example_admin",
      proxyHost: "127.0.0.1",
      proxyPort: 6_432,
      webPort: 3_000,
      embeddedPort: 54_320,
      metricsListen: undefined,
      maxConnections: 1_000,
      maxConcurrentQuestions: { perProxy: 64, perRole: 16 },
      nativeRelay: true,
      clientTls: undefined,
      tlsHandshakeTimeoutMilliseconds: 10_000,
      clientLoginTimeoutMilliseconds: 60_000,
      authQuery: undefined,
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
        NLQ_QDRANT_URL: "http://qdrant:6333",
        NLQ_QDRANT_API_KEY: "key",
        NLQ_QDRANT_COLLECTION_PREFIX: "staging_",
        NLQ_WEB_POOL_SIZE: "3",
        NLQ_WEB_SINGLE_USER: "on",
        NLQ_WEB_SESSION_IDLE_MINUTES: "5",
        NLQ_WEB_EXAMPLE_ADMIN_ROLE: " curators ",
        NLQ_PROXY_HOST: "0.0.0.0",
        NLQ_PROXY_PORT: "0",
        NLQ_WEB_PORT: "4000",
        NLQ_EMBEDDED_PORT: "65535",
        NLQ_METRICS_HOST: "0.0.0.0",
        NLQ_METRICS_PORT: "9187",
        NLQ_MAX_CONNECTIONS: " 250 ",
        NLQ_MAX_CONCURRENT_QUESTIONS: "40",
        NLQ_MAX_CONCURRENT_QUESTIONS_PER_ROLE: "4",
        NLQ_NATIVE_RELAY: "off",
        NLQ_TLS_CERT: "/etc/nlq/server.crt",
        NLQ_TLS_KEY: " /etc/nlq/server.key ",
        NLQ_TLS_REQUIRED: "on",
        NLQ_TLS_HANDSHAKE_TIMEOUT_MS: "2500",
        NLQ_CLIENT_LOGIN_TIMEOUT_MS: "30000",
        NLQ_AUTH_QUERY_URL: "postgresql://nlq_auth@db/postgres",
        NLQ_AUTH_QUERY: "select * from nlq_auth.lookup($1)",
      }),
    ).toEqual({
      databaseUrl: "postgresql://me@db/shop",
      demoUrl: "postgresql://me@db/demo",
      home: "/srv/nlq",
      metadataUrl: "postgres://meta@db/nlq",
      migrationsDirectory: "/srv/migrations",
      qdrant: { url: "http://qdrant:6333", apiKey: "key", collectionPrefix: "staging_" },
      webPoolSize: 3,
      webSingleUser: true,
      webSessionIdleMinutes: 5,
      webExampleAdministratorRole: "curators",
      proxyHost: "0.0.0.0",
      proxyPort: 0,
      webPort: 4_000,
      embeddedPort: 65_535,
      metricsListen: { host: "0.0.0.0", port: 9_187 },
      maxConnections: 250,
      maxConcurrentQuestions: { perProxy: 40, perRole: 4 },
      nativeRelay: false,
      clientTls: { certificateFile: "/etc/nlq/server.crt", keyFile: "/etc/nlq/server.key", required: true },
      tlsHandshakeTimeoutMilliseconds: 2_500,
      clientLoginTimeoutMilliseconds: 30_000,
      authQuery: { url: "postgresql://nlq_auth@db/postgres", query: "select * from nlq_auth.lookup($1)" },
    });
    expect(loadServiceSettings({ NLQ_QDRANT_URL: "  ", NLQ_PROXY_HOST: "" })).toMatchObject({
      qdrant: { url: undefined },
      proxyHost: "127.0.0.1",
    });
  });

  it("serves the metrics endpoint on 127.0.0.1 once NLQ_METRICS_PORT is set, 0 included", () => {
    expect(loadServiceSettings({ NLQ_METRICS_PORT: "0" }).metricsListen).toEqual({ host: "127.0.0.1", port: 0 });
    expect(loadServiceSettings({ NLQ_METRICS_HOST: "0.0.0.0" }).metricsListen).toBeUndefined();
  });

  it("needs the TLS certificate and key together, and both for NLQ_TLS_REQUIRED", () => {
    expect(() => loadServiceSettings({ NLQ_TLS_CERT: "/etc/nlq/server.crt" })).toThrow(
      "NLQ_TLS_CERT and NLQ_TLS_KEY must be set together",
    );
    expect(() => loadServiceSettings({ NLQ_TLS_REQUIRED: "on" })).toThrow("NLQ_TLS_REQUIRED=on needs NLQ_TLS_CERT");
    expect(loadServiceSettings({ NLQ_TLS_CERT: "c.pem", NLQ_TLS_KEY: "k.pem" }).clientTls).toEqual({
      certificateFile: "c.pem",
      keyFile: "k.pem",
      required: false,
    });
  });

  const refusals: ReadonlyArray<[Record<string, string>, string]> = [
    [{ NLQ_WEB_POOL_SIZE: "abc" }, 'NLQ_WEB_POOL_SIZE must be a whole number ≥ 1, got "abc"'],
    [{ NLQ_WEB_POOL_SIZE: "0" }, 'NLQ_WEB_POOL_SIZE must be a whole number ≥ 1, got "0"'],
    [{ NLQ_MAX_CONNECTIONS: "0" }, 'NLQ_MAX_CONNECTIONS must be a whole number ≥ 1, got "0"'],
    [{ NLQ_MAX_CONCURRENT_QUESTIONS: "0" }, 'NLQ_MAX_CONCURRENT_QUESTIONS must be a whole number ≥ 1, got "0"'],
    [
      { NLQ_MAX_CONCURRENT_QUESTIONS_PER_ROLE: "many" },
      'NLQ_MAX_CONCURRENT_QUESTIONS_PER_ROLE must be a whole number ≥ 1, got "many"',
    ],
    [{ NLQ_PROXY_PORT: "70000" }, 'NLQ_PROXY_PORT must be a TCP port number (0-65535), got "70000"'],
    [{ NLQ_WEB_PORT: "80a" }, 'NLQ_WEB_PORT must be a TCP port number (0-65535), got "80a"'],
    [{ NLQ_METRICS_PORT: "metrics" }, 'NLQ_METRICS_PORT must be a TCP port number (0-65535), got "metrics"'],
    [{ NLQ_TLS_REQUIRED: "sometimes" }, 'NLQ_TLS_REQUIRED must be on or off, got "sometimes"'],
    [{ NLQ_TLS_HANDSHAKE_TIMEOUT_MS: "0" }, 'NLQ_TLS_HANDSHAKE_TIMEOUT_MS must be a whole number ≥ 1, got "0"'],
    [{ NLQ_CLIENT_LOGIN_TIMEOUT_MS: "1m" }, 'NLQ_CLIENT_LOGIN_TIMEOUT_MS must be a whole number ≥ 1, got "1m"'],
    [{ NLQ_EMBEDDED_PORT: "-1" }, 'NLQ_EMBEDDED_PORT must be a TCP port number (0-65535), got "-1"'],
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
    expect(() => loadServiceSettings({ NLQ_WEB_POOL_SIZE: "abc", NLQ_ROW_LIMIT: "x" })).toThrow(
      /NLQ_ROW_LIMIT must be .*; NLQ_WEB_POOL_SIZE must be/,
    );
  });
});
