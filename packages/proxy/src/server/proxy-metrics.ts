import { type Answer, type AnswerQuestionOptions, NlqError } from "@nlq/engine";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

type Answerer = (options: AnswerQuestionOptions) => Promise<Answer>;

/** Seconds; questions take from a fraction of a second (scripted) to minutes (many model calls). */
const QUESTION_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 40, 80, 160];
/** Seconds; one model call. */
const STEP_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 16, 32, 64];

/**
 * The proxy's Prometheus metrics, in a registry of their own (so two servers in one process do not share counts):
 * connections, questions by outcome, question and per-step durations, model calls and tokens, errors by SQLSTATE,
 * plus Node's default process metrics (`nlq_process_*`, `nlq_nodejs_*`).
 */
export class ProxyMetrics {
  readonly registry = new Registry();
  readonly #openConnections = new Gauge({
    name: "nlq_proxy_open_connections",
    help: "Client connections open now.",
    registers: [this.registry],
  });
  readonly #relayedConnections = new Gauge({
    name: "nlq_proxy_relayed_connections",
    help: "Client connections whose ordinary SQL passes through the native relay now (NLQ_NATIVE_RELAY).",
    registers: [this.registry],
  });
  readonly #acceptedConnections = new Counter({
    name: "nlq_proxy_connections_accepted_total",
    help: "Client connections accepted.",
    registers: [this.registry],
  });
  readonly #refusedConnections = new Counter({
    name: "nlq_proxy_connections_refused_total",
    help: "Client connections refused with FATAL 53300 because NLQ_MAX_CONNECTIONS were open.",
    registers: [this.registry],
  });
  readonly #maxConnections = new Gauge({
    name: "nlq_proxy_max_connections",
    help: "The connection cap (NLQ_MAX_CONNECTIONS): client connections served at once.",
    registers: [this.registry],
  });
  readonly #questions = new Counter({
    name: "nlq_questions_total",
    help: 'Questions by outcome ("answered", "failed"); failed ones by SQLSTATE class (first two characters).',
    labelNames: ["outcome", "sqlstate_class"] as const,
    registers: [this.registry],
  });
  readonly #questionDuration = new Histogram({
    name: "nlq_question_duration_seconds",
    help: "Time to answer a question, by outcome.",
    labelNames: ["outcome"] as const,
    buckets: QUESTION_BUCKETS,
    registers: [this.registry],
  });
  readonly #stepDuration = new Histogram({
    name: "nlq_pipeline_step_duration_seconds",
    help: "Latency of one language-model call, by pipeline step and model.",
    labelNames: ["step", "model"] as const,
    buckets: STEP_BUCKETS,
    registers: [this.registry],
  });
  readonly #llmCalls = new Counter({
    name: "nlq_llm_calls_total",
    help: "Language-model calls (failed ones included), by pipeline step and model.",
    labelNames: ["step", "model"] as const,
    registers: [this.registry],
  });
  readonly #llmCallFailures = new Counter({
    name: "nlq_llm_call_failures_total",
    help: 'Language-model calls that failed, by pipeline step, model and failure ("unreadable-output", "refused", "call-failed", "cancelled").',
    labelNames: ["step", "model", "failure"] as const,
    registers: [this.registry],
  });
  readonly #llmTokens = new Counter({
    name: "nlq_llm_tokens_total",
    help: 'Language-model tokens, by pipeline step, model and direction ("input", "output").',
    labelNames: ["step", "model", "direction"] as const,
    registers: [this.registry],
  });
  readonly #errors = new Counter({
    name: "nlq_errors_total",
    help: "Errors returned to clients for questions, by SQLSTATE.",
    labelNames: ["sqlstate"] as const,
    registers: [this.registry],
  });

  constructor(options: { readonly maxConnections?: number } = {}) {
    collectDefaultMetrics({ register: this.registry, prefix: "nlq_" });
    if (options.maxConnections !== undefined) this.#maxConnections.set(options.maxConnections);
  }

  /** A client connection was accepted. */
  connectionOpened(): void {
    this.#acceptedConnections.inc();
    this.#openConnections.inc();
  }

  /** A client connection was refused: the cap was reached. */
  connectionRefused(): void {
    this.#refusedConnections.inc();
  }

  /** A client connection is gone. */
  connectionClosed(): void {
    this.#openConnections.dec();
  }

  /** A connection was handed to the native relay (`true`) or taken back from it (`false`). */
  connectionRelayed(relayed: boolean): void {
    if (relayed) this.#relayedConnections.inc();
    else this.#relayedConnections.dec();
  }

  /**
   * `answerQuestion` that records each question's outcome and duration and every model call (from its
   * `llm-call-end` events), passing the events on to the caller's own `onEvent`.
   */
  instrument(answerQuestion: Answerer): Answerer {
    return async (options) => {
      const endTimer = this.#questionDuration.startTimer();
      const onEvent = options.onEvent;
      try {
        const answer = await answerQuestion({
          ...options,
          onEvent: (event) => {
            if (event.type === "llm-call-end") {
              const { step, model, inputTokens, outputTokens, latencyMilliseconds } = event.call;
              this.#stepDuration.observe({ step, model }, latencyMilliseconds / 1000);
              this.#llmCalls.inc({ step, model });
              if (event.call.failure !== undefined) {
                this.#llmCallFailures.inc({ step, model, failure: event.call.failure });
              }
              this.#llmTokens.inc({ step, model, direction: "input" }, inputTokens);
              this.#llmTokens.inc({ step, model, direction: "output" }, outputTokens);
            }
            onEvent?.(event);
          },
        });
        endTimer({ outcome: "answered" });
        this.#questions.inc({ outcome: "answered", sqlstate_class: "" });
        return answer;
      } catch (error) {
        endTimer({ outcome: "failed" });
        this.questionFailed(error);
        throw error;
      }
    };
  }

  /** Counts a failed question under its SQLSTATE (`XX000` for an error that is not an `NlqError`). */
  questionFailed(error: unknown): void {
    const sqlstate = NlqError.isInstance(error) ? error.code : "XX000";
    this.#questions.inc({ outcome: "failed", sqlstate_class: sqlstate.slice(0, 2) });
    this.#errors.inc({ sqlstate });
  }

  /** The metrics in Prometheus' text exposition format. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  /** The exposition format's content type. */
  get contentType(): string {
    return this.registry.contentType;
  }
}
