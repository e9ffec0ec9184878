import { fileURLToPath } from "node:url";
import { createTestDatabase, type TestDatabase } from "@nlq/adapters/testing";
import { answerQuestion, loadSettings } from "@nlq/engine";
import type { ProxyServer } from "@nlq/proxy";
import { startTestProxy, upstreamHost, upstreamUser } from "./proxy-fixture";

/** The demo's scripted replay (no language model is reachable here); every answer from it says so on the wire. */
const demoModelFixture = fileURLToPath(new URL("../../fixtures/demo-model.json", import.meta.url));

/** A question the demo fixture holds a recorded answer for, and what that answer returns on the table below. */
export const DEMO_QUESTION = "how many customers are there?";
export const DEMO_SQL = "SELECT count(*) AS customers FROM customers";
export const DEMO_CUSTOMERS = 3;

/** A proxy answering with the real pipeline and the demo's scripted model, counting the model calls. */
export interface ScriptedDemoProxy {
  readonly proxy: ProxyServer;
  readonly database: TestDatabase;
  /** `postgresql://` URL of the test database through the proxy. */
  readonly url: string;
  /** Model calls the pipeline made (its `llm-call-start` events) since the start or the last `resetModelCalls()`. */
  modelCalls(): number;
  resetModelCalls(): void;
  close(): Promise<void>;
}

/**
 * Starts a proxy in front of a fresh test database holding a small `customers` table, answering questions with the
 * real `answerQuestion`, `NLQ_MODEL=scripted:fixtures/demo-model.json` and the `fast` preset, counting how often the
 * pipeline asked the model.
 */
export async function startScriptedDemoProxy(prefix: string): Promise<ScriptedDemoProxy> {
  const database = await createTestDatabase(
    prefix,
    "create table customers (customer_id int primary key, first_name text not null, city text);" +
      "insert into customers values (1, 'Ada', 'London'), (2, 'Blaise', 'Paris'), (3, 'Carl', 'Berlin');",
  );
  // The `fast` preset (one candidate): one model call per answered question, so the tests can count generations.
  const settings = loadSettings({ NLQ_MODEL: `scripted:${demoModelFixture}`, NLQ_PRESET: "fast" });
  let calls = 0;
  const proxy = await startTestProxy(
    (options) =>
      answerQuestion({
        ...options,
        settings,
        onEvent: (event) => {
          if (event.type === "llm-call-start") calls++;
          options.onEvent?.(event);
        },
      }),
    { settings },
  );
  return {
    proxy,
    database,
    url: `postgresql://${encodeURIComponent(upstreamUser)}@${upstreamHost}:${proxy.address.port}/${database.name}`,
    modelCalls: () => calls,
    resetModelCalls: () => {
      calls = 0;
    },
    close: async () => {
      await proxy.close();
      await database.drop();
    },
  };
}
