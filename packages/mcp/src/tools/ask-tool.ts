import { type AuditedOutcome, createQuestionAnswerer, dataSourceKey } from "@nlq/adapters";
import { type Answer, answerWithInterpretation, checkQuestionLength, type Settings } from "@nlq/engine";
import type { McpToolSettings, RoleSession } from "../role-session";
import type { ElicitedReading } from "./elicit-interpretation";
import { rememberReading } from "./remember-reading";

/** What `ask` returns to the client: the answer, its evidence and how sure nlq is. */
export interface AskResult {
  readonly question: string;
  readonly sql: string;
  readonly columns: readonly string[];
  readonly rows: ReadonlyArray<ReadonlyArray<string | null>>;
  /** True when a cap (the tool's `maxRows`, `NLQ_ROW_LIMIT` or `NLQ_RESULT_BYTE_LIMIT`) cut the rows. */
  readonly truncated: boolean;
  /** The plain-language answer (model output: text only), when the preset writes one. */
  readonly answer?: string;
  /** In [0, 1]; absent when a single candidate was written (nothing to compare). */
  readonly confidence?: number;
  /** How the confidence was computed, or why there is none. */
  readonly confidenceBasis: string;
  readonly selection: Answer["selection"];
  /** Every candidate: its SQL, whether it ran, its row count and its execution cluster. */
  readonly candidates: ReadonlyArray<{
    readonly generator: string;
    readonly sql: string;
    readonly ok: boolean;
    readonly rows?: number;
    readonly cluster?: number;
    readonly error?: string;
  }>;
  /**
   * The readings of the question when the candidates' results disagree (each with its SQL, support, first rows and how
   * it differs from the chosen one; the chosen one first), with whether nlq would ask which was meant and why.
   */
  readonly interpretations?: Answer["interpretations"];
  readonly needsChoice?: boolean;
  readonly choiceBasis?: string;
  /** The readings the reading step found for a phrase in doubt, each with its own candidates (see `Answer.readings`). */
  readonly readings?: Answer["readings"];
  /** Confirmed readings the answer followed instead of asking: whose (`you`, `an administrator`) and when. */
  readonly followedConfirmations?: Answer["followedConfirmations"];
  /** The knowledge entries (terms, metrics, descriptions, rules, readings) that reached the answer's prompts. */
  readonly knowledgeUsed?: Answer["knowledgeUsed"];
  /** What a confirmation (`choose_reading` with `remember`, or the form's "use this from now on") kept, or why not. */
  readonly remembered?: string;
  readonly model: string;
  /** True when the model is a scripted replay, not a language model. */
  readonly scripted: boolean;
  readonly explanation?: string;
}

/**
 * Answers a question through the whole pipeline, composed exactly as `nlq ask` composes it (`createQuestionAnswerer`:
 * the catalog index when there is one, the query log and the response cache of the metadata store; and, when the server
 * keeps them (`tools.backgroundValueIndexes`), a value index built in the background over the role's own login), on
 * the role's own session; `origin: "mcp"` in the query log. `preset` names a built-in preset (`fast`, `balanced`, `max`).
 */
export async function askTool(
  role: RoleSession,
  tools: McpToolSettings,
  input: { readonly question: string; readonly preset?: string },
  abortSignal?: AbortSignal,
  /** The MCP client's name (`initialize`'s `clientInfo.name`), recorded in the audit trail. */
  clientName?: string,
  /**
   * Asks the user which reading was meant when the answer leaves the choice open (`elicitInterpretation`): the picked
   * number and whether to keep it from now on, or undefined to keep #1. Default: never asks (the readings are listed
   * in the result).
   */
  choose?: (answer: Answer) => Promise<ElicitedReading | undefined>,
  /** Receives the answer the result describes (the MCP session keeps it for `choose_reading`). Default: none. */
  onAnswer?: (answer: Answer) => void,
): Promise<AskResult> {
  const settings: Settings = input.preset === undefined ? tools.settings : tools.settingsForPreset(input.preset);
  const question = input.question.trim();
  checkQuestionLength(question, settings.maxQuestionLength);
  const askedAt = new Date();
  const asker = {
    surface: "mcp",
    role: role.roleName ?? decodeURIComponent(new URL(role.url).username),
    dataSource: dataSourceKey(role.url),
    ...(role.clientAddress === undefined ? {} : { clientAddress: role.clientAddress }),
    ...(clientName === undefined ? {} : { applicationName: clientName }),
  } as const;
  let outcome: AuditedOutcome | undefined;
  try {
    // A background value index of the role's database, when the server keeps them, over the role's own login.
    const login = tools.backgroundValueIndexes ? role.backgroundLogin?.() : undefined;
    const { answer: ask } = createQuestionAnswerer({
      store: tools.metadataStore,
      url: login?.url ?? role.url,
      qdrant: tools.qdrant,
      queryLog: tools.metadataStore?.queryLog,
      llmCache: tools.metadataStore?.llmCache,
      ...(login
        ? { backgroundValueIndexes: tools.backgroundValueIndexes, ambientCredentials: login.ambientCredentials }
        : {}),
    });
    let answer = await role.exclusive(() =>
      ask({
        question,
        session: role.session,
        settings,
        origin: "mcp",
        abortSignal,
      }),
    );
    const picked = choose === undefined ? undefined : await choose(answer);
    const chosen = answer.interpretations?.find((reading) => reading.chosen)?.number;
    if (picked !== undefined && picked.number !== chosen) {
      const asked = answer;
      // A pick answers this question only (rule 2 of docs/decisions/2026-12-01-readings-knowledge-and-teaching.md).
      answer = await role.exclusive(() =>
        answerWithInterpretation({
          answer: asked,
          number: picked.number,
          session: role.session,
          settings,
          abortSignal,
        }),
      );
    }
    // "Use this from now on" (rule 3): kept for the role, an administrator's for every role.
    const remembered =
      picked?.remember === true
        ? await rememberReading(role, tools, settings, answer, asker.dataSource, abortSignal)
        : undefined;
    outcome = { answer };
    onAnswer?.(answer);
    const described = describeAnswer(answer, tools.maxRows);
    return remembered === undefined ? described : { ...described, remembered };
  } catch (error) {
    outcome = { error };
    throw error;
  } finally {
    // The audit trail (issue 19 item 5): queued, never waits and never throws.
    if (outcome) tools.metadataStore?.auditTrail.record(asker, question, outcome, askedAt);
  }
}

/** The answer as the tool returns it: rows cut at `maxRows`, candidates without their model-call traces. */
export function describeAnswer(answer: Answer, maxRows: number): AskResult {
  const rows = answer.result.rows.slice(0, maxRows);
  return {
    question: answer.question,
    sql: answer.sql,
    columns: answer.result.fields.map((field) => field.name),
    rows,
    truncated: answer.truncated || rows.length < answer.result.rows.length,
    ...(answer.summary ? { answer: answer.summary.sentence } : {}),
    ...(answer.confidence === undefined ? {} : { confidence: answer.confidence }),
    confidenceBasis: answer.selection.basis,
    selection: answer.selection,
    candidates: answer.candidates.map((candidate) => ({
      generator: candidate.generator,
      sql: candidate.sql,
      ok: candidate.ok,
      ...(candidate.rows === undefined ? {} : { rows: candidate.rows }),
      ...(candidate.cluster === undefined ? {} : { cluster: candidate.cluster }),
      ...(candidate.error === undefined ? {} : { error: candidate.error }),
    })),
    ...(answer.interpretations && answer.interpretations.length > 0 ? { interpretations: answer.interpretations } : {}),
    ...(answer.needsChoice === undefined ? {} : { needsChoice: answer.needsChoice }),
    ...(answer.choiceBasis === undefined ? {} : { choiceBasis: answer.choiceBasis }),
    ...(answer.readings && answer.readings.length > 0 ? { readings: answer.readings } : {}),
    ...(answer.followedConfirmations && answer.followedConfirmations.length > 0
      ? { followedConfirmations: answer.followedConfirmations }
      : {}),
    ...(answer.knowledgeUsed && answer.knowledgeUsed.length > 0 ? { knowledgeUsed: answer.knowledgeUsed } : {}),
    model: answer.model.id,
    scripted: answer.model.scripted,
    ...(answer.explanation ? { explanation: answer.explanation } : {}),
  };
}
