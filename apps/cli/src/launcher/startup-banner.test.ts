import { describe, expect, it } from "vitest";
import { formatStartupBanner } from "./startup-banner";

const embedded = {
  database: { url: "postgresql://postgres@127.0.0.1:54320/demo", embedded: true, directory: "/home/me/.nlq/postgres" },
  proxy: { host: "127.0.0.1", port: 6432 },
  metadata: { location: "postgresql://postgres@127.0.0.1:54320/nlq_metadata", embedded: true },
  webUrl: "http://127.0.0.1:3000",
};

describe("formatStartupBanner", () => {
  it("says where everything listens, how to connect, and how to configure a model", () => {
    expect(formatStartupBanner({ ...embedded, model: undefined })).toMatchInlineSnapshot(`
      "
      nlq is running.

        database   postgresql://postgres@127.0.0.1:54320/demo (embedded PostgreSQL with demo data, files in /home/me/.nlq/postgres)
        proxy      127.0.0.1:6432
        metadata   postgresql://postgres@127.0.0.1:54320/nlq_metadata (embedded PostgreSQL)
        web app    http://127.0.0.1:3000

      Ask in SQL through the proxy:
        psql "postgresql://postgres@127.0.0.1:6432/demo"
        demo=> /* nl: how many customers are there? */;

      No language model is configured, so questions will fail with instructions. Set NLQ_MODEL and restart, e.g.
        NLQ_MODEL=openai:gpt-4o-mini OPENAI_API_KEY=… npm start
        NLQ_MODEL=ollama:qwen2.5-coder:7b npm start
        NLQ_MODEL=scripted:fixtures/demo-model.json npm start   (offline demo: a scripted replay of recorded answers, not a model)

      Or chat in the browser: http://127.0.0.1:3000

      nlq ask, nlq index and nlq proxy with the same NLQ_HOME use this metadata store while it runs
      (from elsewhere: NLQ_METADATA_URL=postgresql://postgres@127.0.0.1:54320/nlq_metadata).

      Press Ctrl-C to stop (twice to force).
      "
    `);
  });

  it("labels a scripted model as a replay and omits the web app with --no-web", () => {
    const banner = formatStartupBanner({
      database: { url: "postgresql://me@db:5432/shop", embedded: false },
      proxy: { host: "127.0.0.1", port: 7000 },
      metadata: { location: "postgresql://me:***@meta/nlq", embedded: false },
      webUrl: undefined,
      model: "scripted:fixtures/demo-model.json",
    });
    expect(banner).toContain(
      "Model: scripted:fixtures/demo-model.json — a scripted replay of recorded answers, not a language model.",
    );
    expect(banner).toContain("web app    not started (--no-web)");
    // The example connects to the database DATABASE_URL names, as the proxy honours the requested name.
    expect(banner).toContain('psql "postgresql://postgres@127.0.0.1:7000/shop"');
    expect(banner).toContain("metadata   postgresql://me:***@meta/nlq (NLQ_METADATA_URL)");
    expect(banner).not.toContain("Or chat in the browser");
    expect(banner).not.toContain("use this metadata store while it runs");
    expect(banner).not.toContain("No language model");
  });

  it("shows the embedded superuser's password once, when generated, and the password file on every start", () => {
    const file = "/home/me/.nlq/postgres.pgpass";
    const first = formatStartupBanner({
      ...embedded,
      database: { ...embedded.database, url: "postgresql://postgres:***@127.0.0.1:54320/demo" },
      model: undefined,
      embeddedPassword: { file, generated: "s3cr3t-generated" },
    });
    expect(first).toContain(`  PGPASSFILE=${file} psql "postgresql://postgres@127.0.0.1:6432/demo"`);
    expect(first).toContain("generated now and shown only this once: s3cr3t-generated");
    expect(first).toContain(
      "Or chat in the browser: http://127.0.0.1:3000 (sign in as postgres with the password below)",
    );
    const later = formatStartupBanner({ ...embedded, model: undefined, embeddedPassword: { file } });
    expect(later).not.toContain("s3cr3t");
    expect(later).toContain(`The embedded PostgreSQL's password for postgres is in ${file} (mode 0600).`);
    expect(later).toContain(`PGPASSFILE=${file} psql`);
    expect(later).toContain(`, *** being the password in ${file}).`);
  });
});
