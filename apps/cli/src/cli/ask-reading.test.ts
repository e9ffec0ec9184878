import {
  dataSourceKey,
  KnowledgeStore,
  type MetadataStore,
  openMetadataStore,
  VerifiedExampleStore,
} from "@nlq/adapters";
import { createTestDatabase, dropTestRole, type TestDatabase } from "@nlq/adapters/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerAskCommand } from "./ask-command";
import { runCommand } from "./run-command.test-helpers";

// `nlq ask "…" --reading N [--remember]` (rules 2 and 3 of docs/decisions/2026-12-01-readings-knowledge-and-teaching.md):
// the answer lists both readings of «name»; --reading 2 answers with the performers' names and keeps nothing;
// --reading 2 --remember keeps it as the role's confirmed reading in the metadata store, which the next question
// follows without asking (the one composition hands the engine the role's knowledge). Scripted model (no language
// model): each generator writes what its prompt's reading says.
const fixture = "apps/cli/src/cli/fixtures/ask-readings-model.json";
const role = `nlq_ask_reading_${process.pid}`;
const question = "What is the name of every singer from Canada?";
let database: TestDatabase;
let metadata: TestDatabase;
let store: MetadataStore;

beforeAll(async () => {
  await dropTestRole(role);
  database = await createTestDatabase(
    "nlq_ask_reading",
    `CREATE TABLE singer (singer_id integer PRIMARY KEY, artist_name text NOT NULL, performer_name text NOT NULL,
                          country text NOT NULL);
     INSERT INTO singer VALUES (1, 'Robyn Fenty', 'Rihanna', 'Barbados'), (2, 'Abel Tesfaye', 'The Weeknd', 'Canada'),
                               (3, 'Aubrey Graham', 'Drake', 'Canada');
     CREATE ROLE ${role} LOGIN; GRANT SELECT ON singer TO ${role};`,
  );
  metadata = await createTestDatabase("nlq_ask_reading_metadata");
  store = await openMetadataStore({ settings: { metadataUrl: metadata.url } });
});
afterAll(async () => {
  await store?.close();
  await database?.drop();
  await metadata?.drop();
  await dropTestRole(role);
});

function ask(...options: string[]) {
  return runCommand(registerAskCommand, ["ask", question, "--url", database.urlFor(role), "--quiet", ...options], {
    environment: { NLQ_MODEL: `scripted:${fixture}`, NLQ_PRESET: "balanced", NLQ_METADATA_URL: metadata.url },
  });
}

const kept = async () => ({
  knowledge: await new KnowledgeStore(store.database).visibleTo(dataSourceKey(database.url), role),
  examples: await new VerifiedExampleStore(store.database).visibleTo(dataSourceKey(database.url), role),
});

describe("nlq ask --reading", () => {
  it("lists both readings and says how to answer with another", async () => {
    const result = await ask();
    expect(result.exitCode).toBeFalsy();
    expect(result.stdout).toContain(" Abel Tesfaye\n Aubrey Graham\n");
    expect(result.stdout).toContain(
      "interpretations: the readings' results differ («name» can mean singer.artist_name (#1) or singer.performer_name (#2), and they return different rows); the rows above are #1's — which did you mean? (--reading N answers with #N; add --remember to keep it from now on)",
    );
    expect(result.stdout).toContain(
      "  #2, 1 of 3 candidates, «name» = singer.performer_name: SELECT performer_name FROM singer WHERE country = 'Canada' ORDER BY performer_name",
    );
  });

  it("answers with reading 2 and keeps nothing; --remember keeps it for the role; --remember alone is refused", async () => {
    const picked = await ask("--reading", "2");
    expect(picked.exitCode).toBeFalsy();
    expect(picked.stdout).toContain(" Drake\n The Weeknd\n");
    expect(picked.stdout).not.toContain("remembered");
    expect(await kept()).toEqual({ knowledge: [], examples: [] });
    const missing = await ask("--reading", "7");
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain("interpretation #7");

    const confirmed = await ask("--reading", "2", "--remember", "--json");
    expect(confirmed.exitCode).toBeFalsy();
    const answer = JSON.parse(confirmed.stdout);
    expect(answer.result.rows).toEqual([["Drake"], ["The Weeknd"]]);
    expect(answer.selection.selector).toBe("user");
    expect(answer.remembered).toMatch(
      /^remembered for you: "name" means singer\.performer_name, not singer\.artist_name\./,
    );
    const { knowledge, examples } = await kept();
    expect(knowledge).toEqual([
      expect.objectContaining({ kind: "reading", name: "name", author: role, sharedWithAllRoles: false }),
    ]);
    expect(examples).toEqual([expect.objectContaining({ question, source: "picked", verifiedBy: role })]);

    const alone = await ask("--remember");
    expect(alone.exitCode).toBe(2);
    expect(alone.stderr).toContain("--remember keeps the reading --reading <number> picks");

    // The next question that hinges on «name» follows the confirmation, and says so: nothing is asked.
    const followed = await ask();
    expect(followed.exitCode).toBeFalsy();
    expect(followed.stdout).toContain(" Drake\n The Weeknd\n");
    expect(followed.stdout).toContain(
      `followed a confirmed reading: «name» means singer.performer_name, not singer.artist_name (confirmed by you, ${new Date().toISOString().slice(0, 10)})`,
    );
    expect(followed.stdout).not.toContain("interpretations:");
  });
});
