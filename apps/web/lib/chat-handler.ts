import type { Answer, AnswerQuestionOptions, QueryExecutor, QueryLog } from "@nlq/engine";
import { DEFAULT_MAX_QUESTION_LENGTH, NlqError } from "@nlq/engine";
import { createUIMessageStream, createUIMessageStreamResponse } from "ai";
import { answerData } from "./answer-data";
import type { NlqUIMessage } from "./chat-message";
import { presetFromBody, previousTurnsFromBody, questionFromBody } from "./chat-request";
import { errorData } from "./error-data";
import { createStepTracker } from "./step-tracker";

/** The asking user's database session for one question. */
export interface ChatSession {
  readonly executor: QueryExecutor;
  /** Gives the session back; `failed` discards the connection instead of reusing it. */
  release(failed: boolean): void;
}

/** What the chat route needs from the outside world; the route passes the real ones, tests pass their own. */
export interface ChatDependencies {
  /** Answers one question (the route: `answerQuestion` from @nlq/engine). */
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
  try {
    loaded = loadRequestSettings(dependencies, presetFromBody(body));
    // `NLQ_MAX_QUESTION_LENGTH`; the default when the settings cannot be read (the answer stream then reports why).
    const maximumLength = loaded.settings?.maxQuestionLength ?? DEFAULT_MAX_QUESTION_LENGTH;
    question = questionFromBody(body, maximumLength);
    previousTurns = previousTurnsFromBody(body, maximumLength);
  } catch (error) {
    const data = errorData(error instanceof NlqError ? error : new NlqError("The request body is not a chat request."));
    return Response.json({ error: data }, { status: 400 });
  }
  const logError = dependencies.logError ?? ((error: unknown) => console.error("nlq web: question failed", error));

  const stream = createUIMessageStream<NlqUIMessage>({
    execute: async ({ writer }) => {
      const tracker = createStepTracker();
      let session: ChatSession | undefined;
      let failed = true;
      try {
        if (loaded.settings === undefined) throw loaded.error;
        const settings = loaded.settings;
        session = await dependencies.openSession(request.signal);
        const answer = await dependencies.answer({
          question,
          ...(previousTurns.length > 0 ? { previousTurns } : {}),
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
        for (const part of tracker.finish("done")) writer.write(part);
        writer.write({ type: "data-answer", id: "answer", data: answerData(answer, tracker.languageModelCalls) });
      } catch (error) {
        if (!(error instanceof NlqError)) logError(error);
        for (const part of tracker.finish("failed")) writer.write(part);
        writer.write({ type: "data-error", id: "error", data: errorData(error) });
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
