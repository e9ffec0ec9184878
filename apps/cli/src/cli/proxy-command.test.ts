import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { BackgroundValueIndexes, backgroundIndexKey, createPgExecutor, loadServiceSettings } from "@nlq/adapters";
import { ConfigurationError, loadSettings } from "@nlq/engine";
import { Command } from "commander";
import pg from "pg";
import { describe, expect, it, vi } from "vitest";
import {
  openProxyMetadataStore,
  type ProxyCommandOptions,
  proxyAnswerQuestion,
  registerProxyCommand,
  resolveProxyCommand,
} from "./proxy-command";

describe("resolveProxyCommand", () => {
  it("uses the options first", () => {
    expect(
      resolveProxyCommand(
        { upstream: "postgresql://db.example:5433/app", listen: "0.0.0.0:7000", marker: "ask:", queryLog: false },
        { DATABASE_URL: "postgresql://ignored:1/x", NLQ_PROXY_PORT: "9" },
      ),
    ).toEqual({
      upstreamHost: "db.example",
      upstreamPort: 5433,
      listenHost: "0.0.0.0",
      listenPort: 7000,
      marker: "ask:",
      upstreamTls: { mode: "disable", rootCertificate: undefined },
      clientTls: undefined,
    });
  });

  it("reads TLS toward the upstream from the URL and toward clients from the flags or NLQ_TLS_*", () => {
    const resolved = resolveProxyCommand(
      {
        upstream: "postgresql://db.example/app?sslmode=verify-full&sslrootcert=/etc/ca.pem",
        marker: "nl:",
        tlsCert: "/etc/nlq/cert.pem",
        tlsKey: "/etc/nlq/key.pem",
      },
      { NLQ_TLS_CERT: "/ignored.pem", NLQ_TLS_KEY: "/ignored.key", NLQ_TLS_REQUIRED: "on" },
    );
    expect(resolved.upstreamTls).toEqual({ mode: "verify-full", rootCertificate: "/etc/ca.pem" });
    expect(resolved.clientTls).toEqual({
      certificateFile: "/etc/nlq/cert.pem",
      keyFile: "/etc/nlq/key.pem",
      required: true,
    });
    expect(
      resolveProxyCommand(
        { upstream: "postgresql://h", marker: "nl:" },
        { NLQ_TLS_CERT: "/etc/c.pem", NLQ_TLS_KEY: "/etc/k.pem" },
      ).clientTls,
    ).toEqual({ certificateFile: "/etc/c.pem", keyFile: "/etc/k.pem", required: false });
    expect(() => resolveProxyCommand({ upstream: "postgresql://h", marker: "nl:", tlsCert: "c.pem" }, {})).toThrow(
      "--tls-cert and --tls-key must be given together",
    );
    expect(() => resolveProxyCommand({ upstream: "postgresql://h?sslmode=allow", marker: "nl:" }, {})).toThrow(
      /sslmode=allow is not supported/,
    );
    expect(() => resolveProxyCommand({ upstream: "postgresql://h?sslmode=verify-ca", marker: "nl:" }, {})).toThrow(
      /needs sslrootcert/,
    );
    expect(() => resolveProxyCommand({ upstream: "postgresql://h?sslmode=maybe", marker: "nl:" }, {})).toThrow(
      /sslmode must be one of/,
    );
  });

  it("falls back to DATABASE_URL, NLQ_PROXY_HOST/NLQ_PROXY_PORT and the defaults", () => {
    expect(
      resolveProxyCommand({ marker: "nl:", queryLog: false }, { DATABASE_URL: "postgres://user:secret@pg/app" }),
    ).toMatchObject({
      upstreamHost: "pg",
      upstreamPort: 5432,
      listenHost: "127.0.0.1",
      listenPort: 6432,
      marker: "nl:",
    });
    expect(
      resolveProxyCommand(
        { marker: "nl:", queryLog: false },
        { DATABASE_URL: "postgresql://pg:6000", NLQ_PROXY_HOST: "::1", NLQ_PROXY_PORT: "7432" },
      ),
    ).toMatchObject({ upstreamPort: 6000, listenHost: "::1", listenPort: 7432 });
    expect(
      resolveProxyCommand({ listen: "[::1]:5555", upstream: "postgresql://h", marker: "nl:", queryLog: false }, {}),
    ).toMatchObject({ listenHost: "::1", listenPort: 5555 });
  });

  it("explains what is missing or wrong", () => {
    expect(() => resolveProxyCommand({ marker: "nl:", queryLog: false }, {})).toThrow(ConfigurationError);
    expect(() => resolveProxyCommand({ upstream: "mysql://h:1", marker: "nl:", queryLog: false }, {})).toThrow(
      /postgresql:\/\//,
    );
    expect(() =>
      resolveProxyCommand({ upstream: "postgresql://h", listen: "h:port", marker: "nl:", queryLog: false }, {}),
    ).toThrow(/not a port/);
    expect(() => resolveProxyCommand({ upstream: "postgresql://h", marker: " ", queryLog: false }, {})).toThrow(
      /marker/,
    );
  });

  it("reads NLQ_PROXY_HOST/NLQ_PROXY_PORT through the settings schema: a bad port names the variable", () => {
    expect(() =>
      resolveProxyCommand({ upstream: "postgresql://h", marker: "nl:", queryLog: false }, { NLQ_PROXY_PORT: "abc" }),
    ).toThrow('NLQ_PROXY_PORT must be a TCP port number (0-65535), got "abc"');
    expect(() =>
      resolveProxyCommand({ upstream: "postgresql://h", marker: "nl:", queryLog: false }, { NLQ_PROXY_PORT: "65536" }),
    ).toThrow(ConfigurationError);
  });

  it("registers `proxy` with its options and help", () => {
    const program = new Command();
    registerProxyCommand(program);
    const command = program.commands.find((candidate) => candidate.name() === "proxy")!;
    expect(command.options.map((option) => option.long)).toEqual([
      "--upstream",
      "--listen",
      "--marker",
      "--no-metadata",
      "--query-log",
      "--progress",
      "--tls-cert",
      "--tls-key",
    ]);
    expect(command.helpInformation()).toContain("/* nl: question */");
  });

  it("opens the metadata store by default and not with --no-metadata; --query-log is still accepted", async () => {
    const parsed: ProxyCommandOptions[] = [];
    for (const argumentsList of [[], ["--no-metadata"], ["--query-log"]]) {
      const program = new Command().exitOverride();
      registerProxyCommand(program);
      const command = program.commands.find((candidate) => candidate.name() === "proxy")!;
      command.action((options: ProxyCommandOptions) => {
        parsed.push(options);
      });
      await program.parseAsync(["node", "nlq", "proxy", ...argumentsList]);
    }
    expect(parsed.map((options) => options.metadata)).toEqual([true, false, true]);
    const home = mkdtempSync(path.join(tmpdir(), "nlq-proxy-home-"));
    try {
      expect(await openProxyMetadataStore(parsed[1]!, loadServiceSettings({ NLQ_HOME: home }))).toBeUndefined();
      const store = await openProxyMetadataStore(parsed[0]!, loadServiceSettings({ NLQ_HOME: home }));
      try {
        // The embedded PostgreSQL of NLQ_HOME (shared with a running nlq start), its nlq_metadata database.
        expect(store?.driver).toBe("postgres");
        expect(store?.location).toMatch(/^postgresql:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/nlq_metadata$/);
      } finally {
        await store?.close();
      }
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe("proxyAnswerQuestion", () => {
  it("builds value indexes in the background with --no-metadata too, per database and asking role", async () => {
    const url = new URL(process.env.NLQ_TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres");
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    const use = vi
      .spyOn(BackgroundValueIndexes.prototype, "use")
      .mockImplementation(() => ({ status: "building" as const }));
    try {
      const answer = proxyAnswerQuestion(undefined, url.hostname, Number(url.port || 5432));
      // No model is configured: the answer fails, after the question's values were prepared.
      await answer({ question: "Which cities?", session: createPgExecutor(client), settings: loadSettings({}) }).catch(
        () => undefined,
      );
      const who = await client.query("SELECT current_user, current_database()");
      const asking = new URL(url);
      asking.username = who.rows[0].current_user;
      asking.password = "";
      asking.pathname = `/${who.rows[0].current_database}`;
      expect(use.mock.calls.map(([key]) => key)).toEqual([backgroundIndexKey(asking.toString())]);
    } finally {
      use.mockRestore();
      await client.end();
    }
  });
});
