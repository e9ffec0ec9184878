import type { AuditedOutcome, QuestionAsker, QuestionAuditTrail } from "@nlq/adapters";
import type { Answer, AnswerQuestionOptions, QueryExecutor, QueryLog } from "@nlq/engine";
import { DEFAULT_MAX_QUESTION_LENGTH, NlqError } from "@nlq/engine";
import { createUIMessageStream, createUIMessageStreamResponse } from "ai";
import { answerData } from "./answer-data";
import { maximumPreviousTurns, type NlqUIMessage } from "./chat-message";
import { presetFromBody, previousTurnsFromBody, questionFromBody, threadIdFromBody } from "./chat-request";
import { errorData } from "./error-data";
import { requestClient } from "./request-client";
import { createStepTracker } from "./step-tracker";
import type { StoredReply, ThreadRecorder } from "./thread-recorder";

/** The asking user's database session for one question. */
export interface ChatSession {
  readonly executor: QueryExecutor;
  /** Gives the session back; `failed` discards the connection instead of reusing it. */
  release(failed: boolean): void;
}

/** What the chat route needs from the outside world; the route passes the real ones, tests pass their own. */
export interface ChatDependencies {
  /** Answers one question (the route: `createQuestionAnswerer(…).answer` from @nlq/adapters). */
  answer(options: AnswerQuestionOptions): Promise<Answer>;
  /**
   * Resolved settings (the route: `loadSettings(process.env)`), with the request's preset in place of `NLQ_PRESET`
   * when it names one; may throw a configuration error.
   */
  settings(preset?: string): AnswerQuestionOptions["settings"];
  /** Opens a dedicated database session for one question. */
  openSession(abortSignal: AbortSignal): Promise<ChatSession>;
  /** Where finished questions are logged; none by default. */
  queryLog?: QueryLog;
  /**
   * The audit trail (`MetadataStore.auditTrail`) and who asks (surface `web`, the user's role and data source); the
   * request adds its client address and user agent. None by default.
   */
  audit?: { readonly trail: Pick<QuestionAuditTrail, "record">; readonly asker: QuestionAsker };
  /**
   * Where the user's conversation is kept (the metadata store); none by default (the browser's turns are the
   * follow-up context). With it, the stored thread's turns are the context and each reply is recorded.
   */
  threads?: ThreadRecorder;
  /** Logs failures that are not typed @nlq/engine errors (default `console.error`). */
  logError?: (error: unknown) => void;
}

/** The settings of one request, read once: the value, or the configuration error the answer stream reports. */
type LoadedSettings =
  | { readonly settings: AnswerQuestionOptions["settings"] }
  | { readonly settings?: undefined; readonly error: unknown };

function loadRequestSettings(dependencies: ChatDependencies, preset: string | undefined): LoadedSettings {
  try {
    return { settings: dependencies.settings(preset) };
  } catch (error) {
    return { error };
  }
}

/**
 * Answers the question of one chat request and streams the pipeline's progress as AI SDK UI message
 * chunks: `data-step` parts while it runs, then one `data-answer` or `data-error` part. The pipeline is
 * aborted when the request is (the browser stopped or went away). A body without a question, or with one over
 * `NLQ_MAX_QUESTION_LENGTH`, is answered 400 with the typed error (no session is opened). The body may name a
 * preset (`"preset": "fast" | "balanced" | "max"`) for this request only.
 */
export async function handleChatRequest(request: Request, dependencies: ChatDependencies): Promise<Response> {
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return Response.json({ error: errorData(new NlqError("The request body is not JSON.")) }, { status: 400 });
  }
  let loaded: LoadedSettings;
  let question: string;
  let previousTurns: ReturnType<typeof previousTurnsFromBody>;
  let threadId: string | undefined;
  try {
    loaded = loadRequestSettings(dependencies, presetFromBody(body));
    // `NLQ_MAX_QUESTION_LENGTH`; the default when the settings cannot be read (the answer stream then reports why).
    const maximumLength = loaded.settings?.maxQuestionLength ?? DEFAULT_MAX_QUESTION_LENGTH;
    question = questionFromBody(body, maximumLength);
    previousTurns = previousTurnsFromBody(body, maximumLength);
    threadId = threadIdFromBody(body);
  } catch (error) {
    const data = errorData(
      NlqError.isInstance(error) ? error : new NlqError("The request body is not a chat request."),
    );
    return Response.json({ error: data }, { status: 400 });
  }
  const logError = dependencies.logError ?? ((error: unknown) => console.error("nlq web: question failed", error));
  const askedAt = new Date();
  // Who asked what (issue 19 item 5): queued, never waits and never throws.
  const audit = (outcome: AuditedOutcome) =>
    dependencies.audit?.trail.record(
      { ...dependencies.audit.asker, ...requestClient(request) },
      question,
      outcome,
      askedAt,
    );

  const stream = createUIMessageStream<NlqUIMessage>({
    execute: async ({ writer }) => {
      const tracker = createStepTracker();
      let session: ChatSession | undefined;
      let failed = true;
      let thread: Awaited<ReturnType<ThreadRecorder["open"]>> | undefined;
      // The turn is stored before its reply is streamed: an answer the user sees is in the history, even when the
      // page is reloaded the moment it appears.
      const record = async (reply: StoredReply): Promise<string | undefined> => {
        if (!thread || !dependencies.threads) return undefined;
        try {
          return await dependencies.threads.record(thread.id, question, reply);
        } catch (error) {
          logError(error);
          return undefined;
        }
      };
      const writeTurn = (turnId: string | undefined) => {
        if (turnId) writer.write({ type: "data-turn", id: "turn", data: { id: turnId } });
      };
      try {
        if (dependencies.threads) {
          try {
            thread = await dependencies.threads.open(threadId, question, maximumPreviousTurns);
            writer.write({ type: "data-thread", id: "thread", data: { id: thread.id, title: thread.title } });
          } catch (error) {
            // History is a convenience: a store failure must not keep the question from being answered.
            logError(error);
          }
        }
        if (loaded.settings === undefined) throw loaded.error;
        const settings = loaded.settings;
        const turns = thread ? thread.previousTurns : previousTurns;
        session = await dependencies.openSession(request.signal);
        const answer = await dependencies.answer({
          question,
          ...(turns.length > 0 ? { previousTurns: turns } : {}),
          session: session.executor,
          transactionStatus: "idle",
          settings,
          origin: "web",
          ...(dependencies.queryLog ? { queryLog: dependencies.queryLog } : {}),
          onEvent: (event) => {
            for (const part of tracker.next(event)) writer.write(part);
          },
          abortSignal: request.signal,
        });
        failed = false;
        audit({ answer });
        for (const part of tracker.finish("done")) writer.write(part);
        const data = answerData(answer, tracker.languageModelCalls);
        const turnId = await record({ answer: data });
        writer.write({ type: "data-answer", id: "answer", data });
        writeTurn(turnId);
      } catch (error) {
        if (!NlqError.isInstance(error)) logError(error);
        audit({ error });
        for (const part of tracker.finish("failed")) writer.write(part);
        const data = errorData(error);
        // A question the user stopped is not kept.
        const turnId = request.signal.aborted ? undefined : await record({ error: data, question });
        writer.write({ type: "data-error", id: "error", data });
        writeTurn(turnId);
      } finally {
        session?.release(failed);
      }
    },
    onError: (error) => {
      logError(error);
      return "The answer stream failed.";
    },
  });
  return createUIMessageStreamResponse({ stream });
}
