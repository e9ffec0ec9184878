import { testServerUrl } from "@nlq/adapters/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Answerer,
  answerWith,
  startTestProxy,
  uniqueName,
  upstreamDatabase,
  upstreamHost,
} from "./proxy.test-helpers";
import type { ProxyServer } from "./proxy-server";

const roles = [uniqueName("nlq_cap_a").replaceAll("-", "_"), uniqueName("nlq_cap_b").replaceAll("-", "_")];
const admin = new pg.Client({ connectionString: testServerUrl });
let proxy: ProxyServer;
/** Questions wait here until the test lets them finish. */
let finishQuestions: () => void = () => {};
const questionsMayFinish = new Promise<void>((resolve) => (finishQuestions = resolve));
let started = 0;

const holdingAnswerer: Answerer = async (options) => {
  started++;
  await questionsMayFinish;
  return answerWith(options, "select 42 as answer");
};

beforeAll(async () => {
  await admin.connect();
  for (const role of roles) await admin.query(`create role ${role} login`);
  proxy = await startTestProxy(holdingAnswerer, { maxConcurrentQuestions: { perProxy: 2, perRole: 1 } });
});

afterAll(async () => {
  finishQuestions();
  await proxy.close();
  for (const role of roles) await admin.query(`drop role if exists ${role}`);
  await admin.end();
});

async function connectAs(user: string): Promise<pg.Client> {
  const client = new pg.Client({ host: upstreamHost, port: proxy.address.port, user, database: upstreamDatabase });
  await client.connect();
  return client;
}

async function untilStarted(count: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (started < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(started).toBe(count);
}

describe("the caps on questions answered at once", () => {
  it("refuse one more per role and per proxy with 53400 naming the cap, and the connections stay usable", async () => {
    const [roleA, roleB] = roles as [string, string];
    const first = await connectAs(roleA);
    const sameRole = await connectAs(roleA);
    const second = await connectAs(roleB);
    const third = await connectAs("postgres");
    try {
      const firstAnswer = first.query("/* nl: the answer? */");
      await untilStarted(1);
      await expect(sameRole.query("/* nl: the answer too? */")).rejects.toMatchObject({
        code: "53400",
        message: expect.stringContaining("NLQ_MAX_CONCURRENT_QUESTIONS_PER_ROLE"),
      });
      const secondAnswer = second.query("/* nl: the answer? */");
      await untilStarted(2);
      await expect(third.query("/* nl: and mine? */")).rejects.toMatchObject({
        code: "53400",
        message: expect.stringMatching(/at most 2 at a time \(NLQ_MAX_CONCURRENT_QUESTIONS\)/),
      });
      expect((await sameRole.query("select 1 as one")).rows).toEqual([{ one: 1 }]);
      expect(await proxy.metrics.registry.metrics()).toContain(
        'nlq_questions_total{outcome="failed",sqlstate_class="53"} 2',
      );
      finishQuestions();
      expect((await firstAnswer).rows).toEqual([{ answer: 42 }]);
      expect((await secondAnswer).rows).toEqual([{ answer: 42 }]);
      // Slots are given back: the refused clients may ask now.
      expect((await third.query("/* nl: and mine? */")).rows).toEqual([{ answer: 42 }]);
      expect((await sameRole.query("/* nl: the answer too? */")).rows).toEqual([{ answer: 42 }]);
    } finally {
      await Promise.all([first, sameRole, second, third].map((client) => client.end()));
    }
  });
});
