import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  createTestDatabase,
  dropTestRole,
  type PlantedCodeWorld,
  plantCode,
  type TestDatabase,
} from "@nlq/adapters/testing";
import { answerQuestion, loadSettings } from "@nlq/engine";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startTestProxy, upstreamHost, upstreamUser } from "./proxy.test-helpers";
import type { ProxyServer } from "./proxy-server";

/**
 * Issue 25 in the proxy, with the real pipeline and a scripted hostile model: a question answered with a SELECT of a
 * view another role planted is refused before it runs; so are a prepared question's re-run and a pick whose view got a
 * planted body after the answer (each validated again). The side effects are checked outside the session: the file
 * the planted code writes with COPY … TO PROGRAM and the rows it writes through dblink.
 */
const suffix = randomBytes(4).toString("hex");
const attacker = `nlq_planter_${suffix}`;
const question = "Sales by region?";
let database: TestDatabase;
let admin: pg.Client;
let planted: PlantedCodeWorld;
let directory: string;

/** A scripted model: each generator answers with its own SQL (labelled as scripted, no model wrote it). */
function writeFixture(name: string, generated: Record<string, string>): string {
  const file = path.join(directory, `${name}.json`);
  const responses = [
    { step: "extract-keywords", question: "*", output: { keywords: ["sales", "region"] } },
    ...Object.entries(generated).map(([step, sql]) => ({
      step,
      question: "*",
      output: { reasoning: "Scripted hostile answer.", sql },
    })),
    { step: "fix-candidate", question: "*", output: { reasoning: "Keep it.", sql: "" } },
    { step: "summarize-answer", question: "*", output: { answer: "Scripted." } },
  ];
  writeFileSync(file, JSON.stringify({ description: `Scripted responses (${name}); no model wrote them.`, responses }));
  return file;
}

beforeAll(async () => {
  directory = mkdtempSync(path.join(tmpdir(), "nlq-planted-proxy-"));
  database = await createTestDatabase("nlq_planted_proxy");
  admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  await admin.query(`CREATE ROLE ${attacker} LOGIN`);
  planted = await plantCode(admin, { attacker, database: database.name, suffix });
}, 60_000);

afterAll(async () => {
  await admin?.end();
  await database?.drop();
  await dropTestRole(attacker);
  rmSync(directory, { recursive: true, force: true });
});

/** The attacker's own view, harmless when the question is answered; `plant` gives it the planted body. */
async function ownReport(plant: boolean): Promise<void> {
  const body = plant ? "SELECT att.f() AS region" : "SELECT 'north'::text AS region";
  await admin.query(`SET ROLE ${attacker}; CREATE OR REPLACE VIEW att.report AS ${body};
    GRANT SELECT ON att.report TO PUBLIC; RESET ROLE`);
}

beforeEach(async () => {
  await ownReport(false);
  await planted.reset(admin);
});

async function expectNothingRan(): Promise<void> {
  expect(planted.fileWritten()).toBe(false);
  expect(await planted.lootRows(admin)).toEqual([]);
}

async function connect(proxy: ProxyServer, notices: string[] = []): Promise<pg.Client> {
  const client = new pg.Client({
    host: upstreamHost,
    port: proxy.address.port,
    user: upstreamUser,
    database: database.name,
  });
  client.on("notice", (notice) => notices.push(`${notice.message}${notice.detail ? ` | ${notice.detail}` : ""}`));
  await client.connect();
  return client;
}

describe("planted code through the proxy (a superuser asks, a scripted hostile model answers)", () => {
  it("refuses a question answered with a SELECT of the planted view, naming view, owner and function", async () => {
    const settings = loadSettings({
      NLQ_MODEL: `scripted:${writeFixture("view", { "generate-candidate": "SELECT * FROM att.v_sales" })}`,
      NLQ_PRESET: "fast",
    });
    const proxy = await startTestProxy(answerQuestion, { settings });
    try {
      const client = await connect(proxy);
      try {
        await expect(client.query(`/* nl: ${question} */`)).rejects.toMatchObject({
          code: "25006",
          message: expect.stringMatching(
            new RegExp(
              `view att\\.v_sales \\(owner ${attacker}\\): its view body calls att\\.f\\(\\) \\(owner ${attacker}\\)`,
            ),
          ),
        });
        expect((await client.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
      } finally {
        await client.end();
      }
    } finally {
      await proxy.close();
    }
    await expectNothingRan();
  });

  it("validates a prepared question again at each re-run: a view body planted after the Parse never runs", async () => {
    const settings = loadSettings({
      NLQ_MODEL: `scripted:${writeFixture("prepared", { "generate-candidate": "SELECT region FROM att.report" })}`,
      NLQ_PRESET: "fast",
    });
    const proxy = await startTestProxy(answerQuestion, { settings });
    try {
      const client = await connect(proxy);
      try {
        const prepared = { name: "sales_question", text: `/* nl: ${question} */`, values: [] };
        expect((await client.query(prepared)).rows).toEqual([{ region: "north" }]);
        expect((await client.query(prepared)).rows).toEqual([{ region: "north" }]);
        await ownReport(true);
        await expect(client.query(prepared)).rejects.toMatchObject({
          code: "25006",
          message: expect.stringContaining("view att.report"),
        });
      } finally {
        await client.end();
      }
    } finally {
      await proxy.close();
    }
    await expectNothingRan();
  });

  it("validates a pick again: a reading whose view got a planted body after the answer is refused", async () => {
    const settings = loadSettings({
      NLQ_MODEL: `scripted:${writeFixture("pick", {
        "generate-candidate": "SELECT region FROM att.report",
        "generate-divide-and-conquer": "SELECT 'south'::text AS region",
        "generate-query-plan": "SELECT 'east'::text AS region",
      })}`,
      NLQ_PRESET: "balanced",
    });
    const proxy = await startTestProxy(answerQuestion, { settings });
    try {
      const notices: string[] = [];
      const client = await connect(proxy, notices);
      try {
        await client.query(`/* nl: ${question} */`);
        const reading = notices
          .map((notice) => /^nlq: #(\d+)\b.*\| (.*)$/.exec(notice))
          .find((match) => match?.[2]?.includes("att.report"))?.[1];
        expect(reading).toBeDefined();
        await ownReport(true);
        await expect(client.query(`/* nl#${reading} */;`)).rejects.toMatchObject({
          code: "25006",
          message: expect.stringContaining("its view body calls att.f()"),
        });
      } finally {
        await client.end();
      }
    } finally {
      await proxy.close();
    }
    await expectNothingRan();
  });
});
