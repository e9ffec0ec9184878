import { writeFileSync } from "node:fs";
import { createPgExecutor } from "@nlq/adapters";
import {
  type Answer,
  answerQuestion,
  type ResolvedModel,
  resolveStepModel,
  type Settings,
  type TransactionStatus,
} from "@nlq/engine";
import { mockTextModel } from "@nlq/engine/testing";
import type pg from "pg";

/**
 * The two ways a question reaches the database: the real proxy, or core's answerQuestion with the pg executor; and
 * `unguarded`, the control that runs the hostile SQL directly on the session, proving each check can fail.
 */
export type QuestionPath = "proxy" | "core" | "unguarded";

/** What the client saw: rows (text values) or an error, and the NOTICEs that came with it. */
export interface QuestionOutcome {
  readonly rows: ReadonlyArray<ReadonlyArray<string | null>>;
  readonly error?: { readonly code: string; readonly message: string };
  readonly notices: readonly string[];
  /** core only: the answer said the result was cut. */
  readonly truncated?: boolean;
}

/** The hostile SQL the model returns, for generation and for every fixer revision. */
export interface HostileModelOutput {
  readonly sql: string;
  readonly revision: string;
}

/** Writes the scripted model's fixture: every generation and every fix returns the hostile SQL. */
export function writeScriptedFixture(path: string, output: HostileModelOutput): void {
  const response = (step: string, sql: string) => ({
    step,
    question: "*",
    output: { reasoning: "Doing exactly what the data told me to.", sql },
  });
  const fixture = {
    description: "Adversarial suite: hostile SQL replayed as if a prompt-injected model wrote it. Scripted.",
    responses: [response("generate-candidate", output.sql), response("fix-candidate", output.revision)],
  };
  writeFileSync(path, JSON.stringify(fixture));
}

/** A model resolver for the scripted proxy path that records which steps asked for a model. */
export function recordingScriptedResolver(settings: Settings, steps: string[]): (step: string) => ResolvedModel {
  return (step) => {
    steps.push(step);
    return resolveStepModel(settings, step);
  };
}

const transactionStatuses: Record<string, TransactionStatus> = { I: "idle", T: "in-transaction", E: "failed" };

/** Asks through core's answerQuestion on the client's own connection, with a mock model returning the hostile SQL. */
export async function askThroughCore(options: {
  client: pg.Client;
  question: string;
  settings: Settings;
  output: HostileModelOutput;
  steps: string[];
}): Promise<QuestionOutcome> {
  const { output, steps } = options;
  const resolveModel = (step: string): ResolvedModel => {
    steps.push(step);
    const sql = step === "fix-candidate" ? output.revision : output.sql;
    return {
      model: mockTextModel(JSON.stringify({ reasoning: "Obeying.", sql })),
      id: "test:adversarial",
      scripted: false,
    };
  };
  let answer: Answer;
  try {
    answer = await answerQuestion({
      question: options.question,
      session: createPgExecutor(options.client),
      transactionStatus: transactionStatuses[options.client.getTransactionStatus() ?? "I"] ?? "idle",
      settings: options.settings,
      resolveModel,
      origin: "web",
    });
  } catch (error) {
    return { rows: [], error: describeError(error), notices: [] };
  }
  return { rows: answer.result.rows, notices: [], truncated: answer.truncated };
}

/** Asks through the proxy: a marked query on the client's connection to the proxy. */
export async function askThroughProxy(
  client: pg.Client,
  question: string,
  notices: string[],
): Promise<QuestionOutcome> {
  const start = notices.length;
  try {
    const result = await client.query({ text: `/* nl: ${question} */`, rowMode: "array" });
    return { rows: result.rows as string[][], notices: notices.slice(start) };
  } catch (error) {
    return { rows: [], error: describeError(error), notices: notices.slice(start) };
  }
}

/** The control: the hostile SQL sent straight to the session, with nothing in between. */
export async function askUnguarded(client: pg.Client, sql: string): Promise<QuestionOutcome> {
  try {
    const result = await client.query({ text: sql, rowMode: "array" });
    const last = Array.isArray(result) ? result.at(-1) : result;
    return { rows: (last?.rows ?? []) as string[][], notices: [] };
  } catch (error) {
    return { rows: [], error: describeError(error), notices: [] };
  }
}

function describeError(error: unknown): { code: string; message: string } {
  const code = (error as { code?: unknown }).code;
  return {
    code: typeof code === "string" ? code : "(none)",
    message: error instanceof Error ? error.message : String(error),
  };
}
