import { ConfigurationError } from "@nlq/engine";
import { describe, expect, it } from "vitest";
import { loadProxyServerSettings } from "./proxy-server-settings";

const sharedDefaults = {
  databaseUrl: undefined,
  demoUrl: undefined,
  home: undefined,
  metadataUrl: undefined,
  migrationsDirectory: undefined,
  modelCacheTimeToLiveSeconds: 604800,
  qdrant: { url: undefined, apiKey: undefined, collectionPrefix: undefined },
  webExampleAdministratorRole: "nlq_example_admin",
};

describe("loadProxyServerSettings", () => {
  it("applies defaults to an empty environment", () => {
    expect(loadProxyServerSettings({})).toEqual({
      ...sharedDefaults,
      proxyHost: "127.0.0.1",
      proxyPort: 6_432,
      metricsListen: undefined,
      maxConnections: 1_000,
      maxConcurrentQuestions: { perProxy: 64, perRole: 16 },
      nativeRelay: true,
      clientTls: undefined,
      tlsHandshakeTimeoutMilliseconds: 10_000,
      clientLoginTimeoutMilliseconds: 60_000,
      authQuery: undefined,
      shutdownGraceMilliseconds: 10_000,
    });
  });

  it("reads every variable, trimmed; blank values count as unset", () => {
    expect(
      loadProxyServerSettings({
        DATABASE_URL: " postgresql://me@db/shop ",
        NLQ_PROXY_HOST: "0.0.0.0",
        NLQ_PROXY_PORT: "0",
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
        NLQ_SHUTDOWN_GRACE_MS: "250",
      }),
    ).toEqual({
      ...sharedDefaults,
      databaseUrl: "postgresql://me@db/shop",
      proxyHost: "0.0.0.0",
      proxyPort: 0,
      metricsListen: { host: "0.0.0.0", port: 9_187 },
      maxConnections: 250,
      maxConcurrentQuestions: { perProxy: 40, perRole: 4 },
      nativeRelay: false,
      clientTls: { certificateFile: "/etc/nlq/server.crt", keyFile: "/etc/nlq/server.key", required: true },
      tlsHandshakeTimeoutMilliseconds: 2_500,
      clientLoginTimeoutMilliseconds: 30_000,
      authQuery: { url: "postgresql://nlq_auth@db/postgres", query: "select * from nlq_auth.lookup($1)" },
      shutdownGraceMilliseconds: 250,
    });
    expect(loadProxyServerSettings({ NLQ_QDRANT_URL: "  ", NLQ_PROXY_HOST: "" })).toMatchObject({
      qdrant: { url: undefined },
      proxyHost: "127.0.0.1",
    });
  });

  it("serves the metrics endpoint on 127.0.0.1 once NLQ_METRICS_PORT is set, 0 included", () => {
    expect(loadProxyServerSettings({ NLQ_METRICS_PORT: "0" }).metricsListen).toEqual({ host: "127.0.0.1", port: 0 });
    expect(loadProxyServerSettings({ NLQ_METRICS_HOST: "0.0.0.0" }).metricsListen).toBeUndefined();
  });

  it("needs the TLS certificate and key together, and both for NLQ_TLS_REQUIRED", () => {
    expect(() => loadProxyServerSettings({ NLQ_TLS_CERT: "/etc/nlq/server.crt" })).toThrow(
      "NLQ_TLS_CERT and NLQ_TLS_KEY must be set together",
    );
    expect(() => loadProxyServerSettings({ NLQ_TLS_REQUIRED: "on" })).toThrow("NLQ_TLS_REQUIRED=on needs NLQ_TLS_CERT");
    expect(loadProxyServerSettings({ NLQ_TLS_CERT: "c.pem", NLQ_TLS_KEY: "k.pem" }).clientTls).toEqual({
      certificateFile: "c.pem",
      keyFile: "k.pem",
      required: false,
    });
  });

  const refusals: ReadonlyArray<[Record<string, string>, string]> = [
    [{ NLQ_MAX_CONNECTIONS: "0" }, 'NLQ_MAX_CONNECTIONS must be a whole number ≥ 1, got "0"'],
    [{ NLQ_MAX_CONCURRENT_QUESTIONS: "0" }, 'NLQ_MAX_CONCURRENT_QUESTIONS must be a whole number ≥ 1, got "0"'],
    [
      { NLQ_MAX_CONCURRENT_QUESTIONS_PER_ROLE: "many" },
      'NLQ_MAX_CONCURRENT_QUESTIONS_PER_ROLE must be a whole number ≥ 1, got "many"',
    ],
    [{ NLQ_PROXY_PORT: "70000" }, 'NLQ_PROXY_PORT must be a TCP port number (0-65535), got "70000"'],
    [{ NLQ_METRICS_PORT: "metrics" }, 'NLQ_METRICS_PORT must be a TCP port number (0-65535), got "metrics"'],
    [{ NLQ_TLS_REQUIRED: "sometimes" }, 'NLQ_TLS_REQUIRED must be on or off, got "sometimes"'],
    [{ NLQ_TLS_HANDSHAKE_TIMEOUT_MS: "0" }, 'NLQ_TLS_HANDSHAKE_TIMEOUT_MS must be a whole number ≥ 1, got "0"'],
    [{ NLQ_CLIENT_LOGIN_TIMEOUT_MS: "1m" }, 'NLQ_CLIENT_LOGIN_TIMEOUT_MS must be a whole number ≥ 1, got "1m"'],
    [
      { NLQ_AUTH_QUERY_URL: "mysql://x@y/z" },
      'NLQ_AUTH_QUERY_URL must be a postgres:// or postgresql:// URL, got "mysql://x@y/z"',
    ],
  ];
  it.each(refusals)("refuses %j with a message naming the variable and the value", (environment, message) => {
    expect(() => loadProxyServerSettings(environment)).toThrow(ConfigurationError);
    expect(() => loadProxyServerSettings(environment)).toThrow(message);
  });

  it("names every bad variable in one error, the pipeline's and the shared ones included", () => {
    expect(() =>
      loadProxyServerSettings({ NLQ_MAX_CONNECTIONS: "abc", NLQ_ROW_LIMIT: "x", NLQ_QDRANT_URL: "qdrant:6333" }),
    ).toThrow(/NLQ_ROW_LIMIT must be .*; NLQ_QDRANT_URL must be .*; NLQ_MAX_CONNECTIONS must be/);
  });
});
