import { type AuditedOutcome, dataSourceKey } from "@nlq/adapters";
import { type Answer, answerWithInterpretation, type Settings } from "@nlq/engine";
import type { McpToolSettings, RoleSession } from "../role-session";
import { type AskResult, describeAnswer } from "./ask-tool";
import { NoAnswerToChooseFromError } from "./choose-reading-errors";
import { rememberReading } from "./remember-reading";

export interface ChooseReadingInput {
  /** An interpretation's number in the session's last `ask` answer. */
  readonly number: number;
  /** Keep it as what the role means from now on (an administrator's: for every role). Default false. */
  readonly remember?: boolean;
}

/**
 * MCP's `choose_reading`: answers the session's last `ask` question with interpretation `number`, validated again and
 * run as the role (`answerWithInterpretation`); audited like an answer. A plain choice keeps nothing; with `remember`
 * the reading is confirmed (`rememberReading`) and the result says what was kept. Throws `NoAnswerToChooseFromError`
 * (22023) before any `ask`, `InterpretationNotFoundError` (22023) for a number the answer does not have.
 */
export async function chooseReading(
  role: RoleSession,
  tools: McpToolSettings,
  last: Answer | undefined,
  input: ChooseReadingInput,
  abortSignal?: AbortSignal,
  /** The MCP client's name, recorded in the audit trail. */
  clientName?: string,
): Promise<{ readonly result: AskResult; readonly answer: Answer }> {
  if (last === undefined) throw new NoAnswerToChooseFromError(input.number);
  const settings: Settings = tools.settings;
  const asker = {
    surface: "mcp",
    role: role.roleName ?? decodeURIComponent(new URL(role.url).username),
    dataSource: dataSourceKey(role.url),
    ...(role.clientAddress === undefined ? {} : { clientAddress: role.clientAddress }),
    ...(clientName === undefined ? {} : { applicationName: clientName }),
  } as const;
  const askedAt = new Date();
  let outcome: AuditedOutcome | undefined;
  try {
    const answer = await role.exclusive(() =>
      answerWithInterpretation({ answer: last, number: input.number, session: role.session, settings, abortSignal }),
    );
    const remembered =
      input.remember === true
        ? await rememberReading(role, tools, settings, answer, asker.dataSource, abortSignal)
        : undefined;
    outcome = { answer };
    const described = describeAnswer(answer, tools.maxRows);
    return { result: remembered === undefined ? described : { ...described, remembered }, answer };
  } catch (error) {
    outcome = { error };
    throw error;
  } finally {
    if (outcome) tools.metadataStore?.auditTrail.record(asker, last.question, outcome, askedAt);
  }
}
