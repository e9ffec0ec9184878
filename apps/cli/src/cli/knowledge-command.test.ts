import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { dataSourceKey, KnowledgeStore, openMetadataStore, parseKnowledgeYaml } from "@nlq/adapters";
import { createTestDatabase, dropTestRole, type TestDatabase } from "@nlq/adapters/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerAskCommand } from "./ask-command";
import { registerKnowledgeCommand } from "./knowledge-command";
import { runCommand } from "./run-command.test-helpers";

// `nlq knowledge` end to end against PostgreSQL (issue 27 item 2): an administrator imports a dbt manifest for every
// role; each role lists only what it may read; a role's own entries stay its own; suggestions wait for an
// administrator; export writes the YAML import reads.
const manifest = path.resolve("packages/adapters/src/knowledge-import/fixtures/dbt-manifest.json");
const suffix = randomBytes(4).toString("hex");
const admin = `nlq_kn_admin_${suffix}`;
const alice = `nlq_kn_alice_${suffix}`;
const bob = `nlq_kn_bob_${suffix}`;
const administrators = `nlq_kn_admins_${suffix}`;
const home = mkdtempSync(path.join(tmpdir(), "nlq-knowledge-home-"));
let target: TestDatabase;
let metadata: TestDatabase;
let environment: Record<string, string>;

beforeAll(async () => {
  target = await createTestDatabase(
    "nlq_knowledge",
    `CREATE ROLE ${admin} LOGIN; CREATE ROLE ${alice} LOGIN; CREATE ROLE ${bob} LOGIN; CREATE ROLE ${administrators};
     GRANT ${administrators} TO ${admin};
     CREATE SCHEMA analytics; CREATE SCHEMA raw;
     CREATE TABLE analytics.orders (order_id integer PRIMARY KEY, total_cents bigint, is_test boolean, channel text);
     CREATE TABLE analytics.dim_customers (customer_id integer PRIMARY KEY, region text);
     CREATE TABLE raw.shop_orders (id integer PRIMARY KEY);
     COMMENT ON COLUMN analytics.orders.channel IS 'Sales channel: web, app or store';
     GRANT USAGE ON SCHEMA analytics, raw TO ${admin}, ${alice}, ${bob};
     GRANT SELECT ON ALL TABLES IN SCHEMA analytics, raw TO ${admin};
     GRANT SELECT ON analytics.dim_customers TO ${alice};
     GRANT SELECT ON analytics.orders, analytics.dim_customers TO ${bob};`,
  );
  metadata = await createTestDatabase("nlq_knowledge_store");
  environment = { NLQ_HOME: home, NLQ_METADATA_URL: metadata.url, NLQ_WEB_EXAMPLE_ADMIN_ROLE: administrators };
});
afterAll(async () => {
  await metadata?.drop();
  await target?.drop();
  for (const role of [admin, alice, bob, administrators]) await dropTestRole(role);
  rmSync(home, { recursive: true, force: true });
});

function knowledge(role: string, ...words: string[]) {
  return runCommand(registerKnowledgeCommand, ["knowledge", ...words, "--url", target.urlFor(role)], { environment });
}

async function listed(role: string, ...flags: string[]) {
  const run = await knowledge(role, "list", "--json", ...flags);
  expect(run.exitCode, run.stderr).toBeFalsy();
  return JSON.parse(run.stdout) as {
    entries: { id: string; kind: string; name: string; yours: boolean; shared: boolean; suggested: boolean }[];
    comments: { element: string; text: string }[];
  };
}

describe("nlq knowledge", () => {
  it("imports a dbt manifest as an administrator's shared entries and reports what the database lacks", async () => {
    const run = await knowledge(admin, "import", manifest);
    expect(run.exitCode, run.stderr).toBeFalsy();
    expect(run.stdout).toMatch(
      /^imported .*dbt-manifest\.json \(dbt\) into 127\.0\.0\.1:5432\/nlq_knowledge\S*, shared with every role \(you are an administrator\): 13 created, 0 updated, 0 unchanged, 0 removed\n/,
    );
    expect(run.stdout).toContain(
      "not imported: model.shop.orders.coupon_code: no column coupon_code in analytics.orders",
    );
    expect(run.stdout).toContain(
      "not imported: metric.shop.marketing_spend: metric marketing_spend: no table staging.stg_marketing_spend in the database",
    );
    const again = await knowledge(admin, "import", manifest);
    expect(again.stdout).toContain(": 0 created, 0 updated, 13 unchanged, 0 removed");
  });

  it("answers with the imported definitions a role may read, and says which it used", async () => {
    const ask = (role: string, ...flags: string[]) =>
      runCommand(
        registerAskCommand,
        [
          "ask",
          "What is the Revenue per region?",
          "--url",
          target.urlFor(role),
          "--preset",
          "fast",
          "--quiet",
          ...flags,
        ],
        { environment: { ...environment, NLQ_MODEL: "scripted:apps/cli/src/cli/fixtures/knowledge-ask-model.json" } },
      );
    const forBob = await ask(bob, "--json");
    expect(forBob.exitCode, forBob.stderr).toBeFalsy();
    const bobUsed = (JSON.parse(forBob.stdout) as { knowledgeUsed?: { kind: string; name: string }[] }).knowledgeUsed;
    expect(bobUsed).toContainEqual(expect.objectContaining({ kind: "metric", name: "Revenue" }));
    const text = await ask(bob);
    expect(text.stdout).toMatch(/^used \d+ definitions?: .*metric «Revenue»/m);

    // alice may not read analytics.orders: the metric over it never reaches her prompts.
    const forAlice = await ask(alice, "--json");
    expect(forAlice.exitCode, forAlice.stderr).toBeFalsy();
    const aliceUsed = (JSON.parse(forAlice.stdout) as { knowledgeUsed?: { kind: string; name: string }[] })
      .knowledgeUsed;
    expect(aliceUsed ?? []).not.toContainEqual(expect.objectContaining({ name: "Revenue" }));
    expect((aliceUsed ?? []).every((entry) => !entry.name.startsWith("analytics.orders"))).toBe(true);
  });

  it("lists for each role only what it may read, with the database's comments", async () => {
    const forBob = await listed(bob);
    const bobNames = forBob.entries.map((entry) => `${entry.kind}:${entry.name}`);
    expect(bobNames).toContain("metric:Revenue");
    expect(bobNames).toContain("description:analytics.orders.is_test");
    expect(bobNames).not.toContain("description:raw.shop_orders");
    expect(forBob.entries.every((entry) => entry.shared && !entry.yours)).toBe(true);
    expect(forBob.comments).toEqual([
      { element: "analytics.orders.channel", text: "Sales channel: web, app or store" },
    ]);

    const forAlice = await listed(alice);
    const aliceNames = forAlice.entries.map((entry) => `${entry.kind}:${entry.name}`);
    expect(aliceNames).toContain("description:analytics.dim_customers.region");
    expect(aliceNames).not.toContain("metric:Revenue");
    expect(aliceNames).not.toContain("term:Weekly revenue dashboard");
    expect(forAlice.comments).toEqual([]);

    const text = await knowledge(bob, "list", "--kind", "metric");
    expect(text.stdout).toContain("metric «Revenue» (an administrator's, shared with every role; dbt;");
    expect(text.stdout).toContain("  sql: sum(total_cents / 100.0)");
    expect(text.stdout).not.toContain("COMMENT ON");
  });

  it("keeps a role's own entries its own, and lets only their owner remove them", async () => {
    const added = await knowledge(
      alice,
      "add",
      "--kind",
      "term",
      "--name",
      "key account",
      "--text",
      "A customer in region EMEA with a named account manager.",
      "--references",
      "analytics.dim_customers.region",
    );
    expect(added.exitCode, added.stderr).toBeFalsy();
    expect(added.stdout).toMatch(/^created term «key account» \(yours only\), id [0-9a-f-]{36}\n$/);
    const id = added.stdout.trim().split(" ").at(-1)!;
    expect((await listed(alice)).entries.find((entry) => entry.id === id)).toMatchObject({
      yours: true,
      shared: false,
    });
    expect((await listed(bob)).entries.some((entry) => entry.id === id)).toBe(false);

    const refused = await knowledge(bob, "remove", id);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain(`no knowledge entry ${id} you may remove on this database (SQLSTATE 42704)`);
    const removed = await knowledge(alice, "remove", id);
    expect(removed.stdout).toBe(`removed ${id}\n`);
    expect((await listed(alice)).entries.some((entry) => entry.id === id)).toBe(false);
  });

  it("lets only an administrator accept a suggestion, which then reaches every role", async () => {
    const store = await openMetadataStore({ url: metadata.url });
    const suggestion = await new KnowledgeStore(store.database).suggest(
      {
        dataSource: dataSourceKey(target.urlFor(alice)),
        kind: "rule",
        name: "regions",
        text: "Regions are EMEA, AMER and APAC.",
        references: ["analytics.dim_customers.region"],
      },
      alice,
    );
    await store.close();
    expect((await listed(alice, "--suggestions")).entries).toEqual([
      expect.objectContaining({ id: suggestion.id, suggested: true, yours: true }),
    ]);
    expect((await listed(bob)).entries.some((entry) => entry.id === suggestion.id)).toBe(false);

    const refused = await knowledge(alice, "accept", suggestion.id);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain(`only an administrator (a superuser or a member of ${administrators})`);
    const accepted = await knowledge(admin, "accept", suggestion.id);
    expect(accepted.stdout).toBe(`accepted rule «regions», shared with every role, id ${suggestion.id}\n`);
    expect((await listed(bob)).entries.find((entry) => entry.id === suggestion.id)).toMatchObject({ shared: true });
  });

  it("exports the YAML import reads, and refuses bad input before connecting", async () => {
    const out = path.join(home, "knowledge.yaml");
    const exported = await knowledge(bob, "export", "--out", out);
    expect(exported.exitCode, exported.stderr).toBeFalsy();
    const entries = parseKnowledgeYaml(readFileSync(out, "utf8"), out);
    expect(exported.stdout).toBe(`wrote ${entries.length} entries to ${out}\n`);
    expect(entries).toContainEqual(
      expect.objectContaining({ kind: "metric", name: "Revenue", sql: "sum(total_cents / 100.0)" }),
    );
    // Imported back as alice's own: what she may read of it is hers now, the rest stays unreadable to her.
    const imported = await knowledge(alice, "import", out);
    expect(imported.stdout).toMatch(/\(yaml\) into .*, yours only: \d+ created, 0 updated/);

    const badKind = await knowledge(alice, "add", "--kind", "policy", "--name", "x", "--text", "y");
    expect(badKind.exitCode).toBe(2);
    expect(badKind.stderr).toContain("--kind");
    const missing = await knowledge(alice, "import", path.join(home, "none.json"));
    expect(missing.exitCode).toBe(2);
    const broken = path.join(home, "broken.yaml");
    (await import("node:fs")).writeFileSync(broken, "entries:\n  - kind: term\n    name: x\n");
    const malformed = await knowledge(alice, "import", broken);
    expect(malformed.exitCode).toBe(1);
    expect(malformed.stderr).toContain(`${broken}: $.entries[0].text:`);
  });

  it("edits an entry as its owner or an administrator, keeping every version in a history each role may read", async () => {
    const added = await knowledge(
      bob,
      "add",
      "--kind",
      "term",
      "--name",
      "big order",
      "--text",
      "An order over 100 euros.",
      "--references",
      "analytics.orders.total_cents",
    );
    const id = added.stdout.trim().split(" ").at(-1)!;
    const edited = await knowledge(
      bob,
      "edit",
      id,
      "--text",
      "An order over 200 euros.",
      "--sql",
      "total_cents > 20000",
    );
    expect(edited.exitCode, edited.stderr).toBeFalsy();
    expect(edited.stdout).toBe(`updated term «big order» (yours only), id ${id}\n`);
    expect((await listed(bob)).entries.find((entry) => entry.id === id)).toMatchObject({
      text: "An order over 200 euros.",
      sql: "total_cents > 20000",
      yours: true,
      shared: false,
    });
    const cleared = await knowledge(bob, "edit", id, "--sql", "", "--json");
    expect(JSON.parse(cleared.stdout).entry.sql).toBeUndefined();

    const history = await knowledge(bob, "history", id);
    expect(history.exitCode, history.stderr).toBeFalsy();
    expect(history.stdout).toMatch(
      new RegExp(
        [
          `^history of ${id} \\(oldest first\\)`,
          "\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC  created by you",
          "  «big order»: An order over 100 euros\\.",
          "  references: analytics\\.orders\\.total_cents",
          ".* UTC  updated by you",
          "  «big order»: An order over 200 euros\\.",
          "  sql: total_cents > 20000",
          "  references: analytics\\.orders\\.total_cents",
          ".* UTC  updated by you",
          "  «big order»: An order over 200 euros\\.",
          "  references: analytics\\.orders\\.total_cents\\n$",
        ].join("\\n"),
      ),
    );

    // Another ordinary role's entry does not exist for alice, to edit or to read the history of.
    for (const words of [
      ["edit", id, "--text", "mine now"],
      ["history", id],
    ]) {
      const refused = await knowledge(alice, ...words);
      expect(refused.exitCode).toBe(1);
      expect(refused.stderr).toContain(`no knowledge entry ${id} you may see on this database (SQLSTATE 42704)`);
    }
    const unknown = await knowledge(bob, "edit", "00000000-0000-4000-8000-000000000000", "--text", "x");
    expect(unknown.stderr).toContain("no knowledge entry 00000000-0000-4000-8000-000000000000 you may see");
    const notAnId = await knowledge(bob, "history", "revenue");
    expect(notAnId.exitCode).toBe(1);
    expect(notAnId.stderr).toContain("no knowledge entry revenue you may see on this database (SQLSTATE 42704)");
    const nothing = await knowledge(bob, "edit", id);
    expect(nothing.exitCode).toBe(2);
    expect(nothing.stderr).toContain("nothing to change: pass --name, --text, --sql or --references");

    // Removed, its history stays readable by its owner, ending with the removal.
    await knowledge(bob, "remove", id);
    const afterRemoval = JSON.parse((await knowledge(bob, "history", id, "--json")).stdout) as {
      history: { action: string; changedBy: string }[];
    };
    expect(afterRemoval.history.map((change) => change.action)).toEqual(["created", "updated", "updated", "removed"]);
  });

  it("lets only an administrator edit a shared entry, says a re-import restores an imported one, hides who to others", async () => {
    const revenue = (await listed(bob, "--kind", "metric")).entries.find((entry) => entry.name === "Revenue")!;
    const refused = await knowledge(bob, "edit", revenue.id, "--sql", "sum(total_cents)");
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain(
      `knowledge entry ${revenue.id} is shared with every role: only an administrator (a superuser or a member of ${administrators}) changes it (SQLSTATE 42501)`,
    );

    const edited = await knowledge(admin, "edit", revenue.id, "--sql", "sum(total_cents) / 100.0");
    expect(edited.exitCode, edited.stderr).toBeFalsy();
    expect(edited.stdout).toBe(
      `updated metric «Revenue» (shared with every role), id ${revenue.id}\n` +
        "note: it came from a dbt import; importing that file again makes it what the file says (change it there to keep the change)\n",
    );
    type History = { history: { action: string; changedBy: string; sql?: string }[] };
    const forBob = JSON.parse((await knowledge(bob, "history", revenue.id, "--json")).stdout) as History;
    expect(forBob.history.map((change) => [change.action, change.changedBy, change.sql])).toEqual([
      ["created", "another role", "sum(total_cents / 100.0)"],
      ["updated", "another role", "sum(total_cents) / 100.0"],
    ]);
    const forAdmin = JSON.parse((await knowledge(admin, "history", revenue.id, "--json")).stdout) as History;
    expect(forAdmin.history.map((change) => change.changedBy)).toEqual(["you", "you"]);
    // alice may not read analytics.orders: the metric and its history are not hers to see.
    const forAlice = await knowledge(alice, "history", revenue.id);
    expect(forAlice.stderr).toContain(`no knowledge entry ${revenue.id} you may see`);

    const reimported = await knowledge(admin, "import", manifest);
    expect(reimported.stdout).toContain(": 0 created, 1 updated, 12 unchanged, 0 removed");
    expect((await listed(bob, "--kind", "metric")).entries.find((entry) => entry.id === revenue.id)).toMatchObject({
      sql: "sum(total_cents / 100.0)",
    });
  });

  it("moves a renamed description's reference with it", async () => {
    const added = await knowledge(
      bob,
      "add",
      "--kind",
      "description",
      "--name",
      "analytics.orders.channel",
      "--text",
      "Where the order was placed.",
    );
    const id = added.stdout.trim().split(" ").at(-1)!;
    const renamed = JSON.parse(
      (await knowledge(bob, "edit", id, "--name", "analytics.dim_customers.region", "--json")).stdout,
    ) as { entry: { name: string; references: string[] } };
    expect(renamed.entry).toMatchObject({
      name: "analytics.dim_customers.region",
      references: ["analytics.dim_customers.region"],
    });
  });
});
