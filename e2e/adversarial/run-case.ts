import { existsSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Settings } from "@nlq/engine";
import pg from "pg";
import { upstreamHost, upstreamPort } from "../clients/proxy-fixture";
import { resultByteLimit } from "./adversarial-settings";
import type { AdversarialWorld, RoleKind } from "./adversarial-world";
import {
  askThroughCore,
  askThroughProxy,
  askUnguarded,
  type QuestionOutcome,
  type QuestionPath,
  writeScriptedFixture,
} from "./ask-question";
import { enterVariant, isOpenTransaction, type SessionVariant, untilReady } from "./case-variant";
import { compareState, valueBytes } from "./compare-state";
import type { Payload, PayloadContext } from "./payload";
import { readServerSnapshot } from "./server-snapshot";
import { clientStateSql, readSessionSnapshot } from "./session-snapshot";

/** One adversarial case: a payload, the path it takes, the asking role and the session variant. */
export interface AdversarialCase {
  readonly path: QuestionPath;
  readonly role: RoleKind;
  readonly variant: SessionVariant;
  readonly payload: Payload;
}

/** What every case shares: the world, a superuser observer on the case's database, the proxy and its model. */
export interface CaseEnvironment {
  readonly world: AdversarialWorld;
  readonly observer: pg.Client;
  readonly proxyPort: number;
  /** The scripted model's fixture file the proxy's settings point at. */
  readonly fixturePath: string;
  readonly settings: Settings;
  /** Steps the proxy's model resolver was asked for (cleared per case). */
  readonly proxySteps: string[];
  /** First word of the server file pg_read_file payloads target, as the observer read it. */
  readonly secretNeedle: string;
}

async function connect(role: string, database: string, port: number, notices?: string[]): Promise<pg.Client> {
  const client = new pg.Client({ host: upstreamHost, port, user: role, database });
  if (notices) client.on("notice", (notice) => notices.push(notice.message ?? ""));
  client.on("error", () => undefined);
  await client.connect();
  return client;
}

/**
 * Runs one case and returns every violation found (empty when the case left nothing behind): the question is asked
 * on the client's session, then the session (settings, locks, prepared statements, cursors, dblink connections,
 * temporary sequence, transaction state), the database (data, schema, privileges, statistics, slots), files, other
 * sessions and the proxy's service are checked against what they were before. Repairs the world afterwards.
 */
export async function runCase(
  environment: CaseEnvironment,
  testCase: AdversarialCase,
  index: number,
): Promise<string[]> {
  const { world, observer, settings } = environment;
  const violations: string[] = [];
  let finished = false;
  const marker = `uncommitted work ${world.suffix} ${index}`;
  const context: PayloadContext = {
    filePath: join(tmpdir(), `nlq-adversarial-${world.suffix}-${index}.txt`),
    bystanderPid: 0,
    slotName: `nlq_adv_slot_${world.suffix}`,
    evilRole: `nlq_adv_evil_${world.suffix}`,
    dblinkConnection: world.dblinkConnection,
    largeObjectId: world.largeObjectId,
  };
  const role = world.role(testCase.role, testCase.variant === "sco-off-role");
  const database = world.database.name;
  const notices: string[] = [];
  const port = testCase.path === "proxy" ? environment.proxyPort : upstreamPort;
  const client = await connect(role, database, port, notices);
  const bystander = await connect(role, database, upstreamPort);
  try {
    const bystanderPid = Number((await bystander.query("SELECT pg_backend_pid() AS pid")).rows[0]?.pid);
    const caseContext = { ...context, bystanderPid };
    for (const sql of clientStateSql) await client.query(sql);
    const aborted = testCase.variant === "aborted-transaction";
    const sessionBeforeVariant = aborted ? await readSessionSnapshot(client) : undefined;
    await enterVariant(client, testCase.variant, marker);
    const sessionBefore = sessionBeforeVariant ?? (await readSessionSnapshot(client));
    const clientPid = Number(sessionBefore["backend pid"]);
    const serverBefore = await readServerSnapshot(observer, world.suffix, clientPid);
    const statusBefore = client.getTransactionStatus();

    const sql = testCase.payload.sql(caseContext);
    const output = { sql, revision: testCase.payload.revision?.(caseContext) ?? `${sql}\n-- revised by the fixer` };
    const question = `adversarial case ${index}`;
    let outcome: QuestionOutcome;
    let steps: readonly string[];
    if (testCase.path === "proxy") {
      writeScriptedFixture(environment.fixturePath, output);
      environment.proxySteps.length = 0;
      outcome = await askThroughProxy(client, question, notices);
      steps = [...environment.proxySteps];
    } else if (testCase.path === "unguarded") {
      outcome = await askUnguarded(client, sql);
      steps = ["generate-candidate"];
    } else {
      const coreSteps: string[] = [];
      outcome = await askThroughCore({ client, question, settings, output, steps: coreSteps });
      steps = coreSteps;
    }

    await untilReady(client);
    const statusAfter = client.getTransactionStatus();
    if (statusAfter !== statusBefore)
      violations.push(`transaction status changed from ${statusBefore} to ${statusAfter}`);
    if (aborted) {
      if (outcome.error?.code !== "25P02") {
        violations.push(
          `a question in an aborted transaction must fail with 25P02, got ${JSON.stringify(outcome.error ?? "an answer")}`,
        );
      }
    } else if (!steps.includes("generate-candidate")) {
      violations.push(
        `the hostile SQL never reached the pipeline (model steps: ${steps.join(", ") || "none"}; ${JSON.stringify(outcome.error)})`,
      );
    }
    const serverAfter = await readServerSnapshot(observer, world.suffix, clientPid);
    compareState("database", serverBefore.database, serverAfter.database, violations);
    compareState("client backend", serverBefore.client, serverAfter.client, violations);
    const newBackends = serverAfter.backends.filter((pid) => !serverBefore.backends.includes(pid));
    if (newBackends.length > 0) violations.push(`backends left connected to the database: ${newBackends.join(", ")}`);
    // A session the question left in a failed transaction is a violation (status); roll back to read the rest.
    if (aborted || statusAfter === "E") await client.query("ROLLBACK");
    if (isOpenTransaction(testCase.variant)) {
      const ownRows = await client
        .query("SELECT count(*)::int AS count FROM public.journal WHERE marker = $1", [marker])
        .then((result) => result.rows[0]?.count as number);
      if (ownRows !== 1) violations.push("the client's uncommitted work is gone from its own transaction");
    }
    compareState("session", sessionBefore, await readSessionSnapshot(client), violations);
    const committed = async () =>
      (await observer.query("SELECT count(*)::int AS count FROM public.journal WHERE marker = $1", [marker])).rows[0]
        ?.count;
    if ((await committed()) !== 0) violations.push("the client's uncommitted work was committed");
    if (isOpenTransaction(testCase.variant)) await client.query("ROLLBACK");
    if ((await committed()) !== 0) violations.push("the client's work is committed after its own ROLLBACK");

    const bystanderAlive = await bystander.query("SELECT 1").then(
      () => true,
      () => false,
    );
    if (!bystanderAlive) violations.push(`another session (pid ${bystanderPid}) was terminated`);
    if (existsSync(caseContext.filePath)) violations.push(`the server wrote the file ${caseContext.filePath}`);
    violations.push(...(await plantedCodeViolations(world, observer)));
    if (testCase.path !== "unguarded" && !aborted) {
      violations.push(...refusalViolations(testCase.payload, world, outcome.error));
    }
    if (testCase.payload.mustNotReturn && JSON.stringify(outcome.rows).includes(environment.secretNeedle)) {
      violations.push(`the answer returned the contents of the server file ${testCase.payload.mustNotReturn}`);
    }
    if (testCase.payload.group === "huge-result") checkBounded(outcome, testCase.path, sql, violations);
    if (testCase.role === "superuser") {
      const backup = await client.query("SELECT pg_backup_stop()").then(
        () => "running",
        (error: { code?: string }) => error.code,
      );
      if (backup !== "55000") violations.push(`a backup was left running on the session (${backup})`);
    }
    const served = await client.query("SELECT 1 AS one").then(
      (result) => result.rows[0]?.one === 1,
      () => false,
    );
    if (!served) violations.push("the connection no longer serves `select 1`");
    finished = true;
    return violations;
  } finally {
    await client.end().catch(() => undefined);
    await bystander.end().catch(() => undefined);
    rmSync(context.filePath, { force: true });
    if (!finished || violations.length > 0) await world.repair(observer);
  }
}

/**
 * What the planted code leaves outside the session when it runs (issue 25): the file its `COPY … TO PROGRAM` appends
 * to (only a role allowed to run programs gets that far) and the rows its dblink connection writes into the planter's
 * table — the canary rows the asker could see, or just who ran it.
 */
export async function plantedCodeViolations(world: AdversarialWorld, observer: pg.Client): Promise<string[]> {
  const violations: string[] = [];
  if (world.planted.fileWritten()) {
    violations.push(`the planted code ran a program as the server's OS user (${world.planted.filePath} written)`);
  }
  const loot = await world.planted.lootRows(observer);
  if (loot.length > 0) {
    violations.push(`the planted code wrote through dblink into att.loot: ${JSON.stringify(loot.slice(0, 5))}`);
  }
  return violations;
}

/** A payload with an expected refusal must come back as an error saying so (naming the object, owner, function). */
export function refusalViolations(
  payload: Payload,
  world: AdversarialWorld,
  error: { readonly code: string; readonly message: string } | undefined,
): string[] {
  if (payload.refusal === undefined) return [];
  const expected = payload.refusal(world);
  if (error !== undefined && expected.test(error.message)) return [];
  return [`expected a refusal matching ${expected}, got ${JSON.stringify(error ?? "an answer")}`];
}

/** A huge result must come back cut at the byte cap, with a notice (proxy) or marked truncated (core). */
function checkBounded(outcome: QuestionOutcome, path: QuestionPath, sql: string, violations: string[]): void {
  const bytes = valueBytes(outcome.rows);
  if (outcome.error) {
    violations.push(`a huge result must come back cut, not fail: ${outcome.error.code} ${outcome.error.message}`);
  }
  if (bytes > 2 * resultByteLimit) {
    violations.push(`the answer carried ${bytes} bytes of values, more than twice the byte cap ${resultByteLimit}`);
  }
  const capNotice = outcome.notices.some(
    (notice) =>
      notice !== `nlq: ${sql}` && !notice.includes("scripted replay") && /byte|truncat|\bcut\b|\bcap\b/i.test(notice),
  );
  if (path === "proxy" && !capNotice) {
    violations.push(`no NOTICE said the byte cap was hit (notices: ${JSON.stringify(outcome.notices)})`);
  }
  if (path === "core" && outcome.truncated !== true) violations.push("the answer was not marked truncated");
}
