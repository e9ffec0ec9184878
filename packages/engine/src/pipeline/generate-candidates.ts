import pLimit from "p-limit";
import type { Catalog } from "../catalog/catalog-types";
import type { CandidateRecord, ConversationTurn, VerifiedExample } from "../contract/answer";
import type { CappedResult } from "../database/read-only-session";
import { CancelledError } from "../errors/cancelled-error";
import { type FixedCandidate, runFixLoop } from "../fixing/fix-loop";
import { generatorByName } from "../generation/generator-registry";
import { renderSchemaForSample } from "../generation/sample-schema";
import type { StepContext } from "../llm/step-context";
import type { PlannedReading, ReadingPlan } from "../readings/plan-readings";
import { catalogWithTables } from "../readings/reading-catalog";
import type { ExecutedCandidate } from "../selection/candidate-selector";
import { normalizedSqlKey } from "../selection/normalize-sql";
import type { FunctionPolicy } from "../sql/function-policy";

export interface GenerateCandidatesOptions {
  /** The selected catalog every generator writes against. */
  readonly catalog: Catalog;
  /** Every table the asking role may read (before schema selection). */
  readonly fullCatalog: Catalog;
  readonly context: StepContext;
  readonly previousTurns?: readonly ConversationTurn[];
  readonly examples: readonly VerifiedExample[];
  readonly policy: FunctionPolicy;
  /**
   * Runs validated SQL read-only with the caps, on the asking user's session. Calls are serialized here: candidates
   * share the one session and run one after another, while model calls run concurrently up to
   * `settings.concurrency`.
   */
  readonly execute: (sql: string) => Promise<CappedResult>;
  /**
   * The reading step's plan (`planReadings`): with readings, candidate n is written for reading n mod R (the preset's
   * candidates shared out, one more candidate per reading beyond them), its prompts and its fixer carrying the
   * reading's instruction and its tables; followed confirmations reach every candidate. Default: none.
   */
  readonly readings?: ReadingPlan;
}

export interface GeneratedCandidates {
  /** Candidates that ran (duplicates included, sharing their original's result), in candidate order. */
  readonly executed: readonly ExecutedCandidate[];
  /** Every candidate with what happened to it, in candidate order. */
  readonly records: readonly CandidateRecord[];
  /** The first candidate failure, thrown by the caller when no candidate ran. */
  readonly firstError?: unknown;
  /** The generator's reasoning (the fixer's, when it revised the SQL) of each executed candidate, by candidate index. */
  readonly reasoning: ReadonlyMap<number, string>;
}

interface Job {
  readonly index: number;
  readonly generatorName: string;
  readonly sample: number;
  readonly temperature: number;
  readonly reading?: PlannedReading;
}

function joinLines(...lines: Array<string | undefined>): string | undefined {
  const present = lines.map((line) => line?.trim()).filter((line): line is string => Boolean(line));
  return present.length > 0 ? present.join("\n") : undefined;
}

/** The preset's candidates, then (when readings outnumber them) more samples of its generators in turn. */
function candidateJobs(settings: StepContext["settings"], readings: readonly PlannedReading[]): Job[] {
  const jobs: Job[] = [];
  for (const plan of settings.generators) {
    generatorByName(plan.generator);
    for (let sample = 0; sample < plan.samples; sample += 1) {
      jobs.push({ index: jobs.length, generatorName: plan.generator, sample, temperature: plan.temperature });
    }
  }
  for (let extra = 0; jobs.length < readings.length; extra += 1) {
    const plan = settings.generators[extra % settings.generators.length]!;
    const round = Math.floor(extra / settings.generators.length);
    jobs.push({
      index: jobs.length,
      generatorName: plan.generator,
      sample: plan.samples + round,
      temperature: plan.temperature,
    });
  }
  if (readings.length === 0) return jobs;
  return jobs.map((job) => ({ ...job, reading: readings[job.index % readings.length]! }));
}

type Outcome =
  | { readonly ok: true; readonly fixed: FixedCandidate; readonly reasoning: string }
  | { readonly ok: false; readonly error: unknown };

/**
 * The generation and fixing stages: every generator of `settings.generators` writes its samples (sample n sees the
 * schema's tables in its own seeded order, at the preset's temperature), and every candidate goes through the fixer
 * (β = `settings.maxFixAttempts`) and runs read-only. A candidate whose SQL normalises to one already written is not
 * fixed or executed again: it shares that candidate's outcome (and still counts as a vote). A failing candidate is
 * recorded and the others go on — also one whose call crossed the question's deadline: the candidates that already
 * ran are kept for selection, the later ones fail fast. Only the client's cancel stops them all.
 */
export async function generateCandidates(options: GenerateCandidatesOptions): Promise<GeneratedCandidates> {
  const { context } = options;
  const settings = context.settings;
  const plan = options.readings;
  const jobs = candidateJobs(settings, plan?.readings ?? []);
  const commonHint = joinLines(context.hint, ...(plan?.common.instructions ?? []));
  const commonCatalog = catalogWithTables(options.catalog, options.fullCatalog, plan?.common.tables ?? []);
  /** The context and schema of one candidate: its reading's instruction and tables, or the question's own. */
  const jobScope = (job: Job) => {
    const hint = joinLines(commonHint, job.reading?.instruction);
    return {
      context: hint === context.hint ? context : { ...context, hint },
      catalog: job.reading ? catalogWithTables(commonCatalog, options.fullCatalog, job.reading.tables) : commonCatalog,
    };
  };
  const limit = pLimit(settings.concurrency);
  const sessionLock = pLimit(1);
  const execute = (sql: string) => sessionLock(() => options.execute(sql));
  const byNormalizedSql = new Map<string, { index: number; outcome: Promise<Outcome> }>();
  const records: Array<CandidateRecord | undefined> = jobs.map(() => undefined);
  const executed: Array<ExecutedCandidate | undefined> = jobs.map(() => undefined);
  const reasoning = new Map<number, string>();
  let firstError: { index: number; error: unknown } | undefined;

  const fail = (job: Job, sql: string, error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    records[job.index] = {
      generator: job.generatorName,
      sample: job.sample,
      sql,
      revisions: 0,
      ok: false,
      error: message,
      ...(job.reading ? { reading: job.reading.number } : {}),
    };
    context.emit({ type: "candidate-end", candidate: job.index, sql, ok: false, error: message });
    if (!firstError || job.index < firstError.index) firstError = { index: job.index, error };
  };

  const run = async (job: Job): Promise<void> => {
    context.throwIfCancelled();
    const generator = generatorByName(job.generatorName);
    const scope = jobScope(job);
    const schema = renderSchemaForSample(scope.catalog, job.sample);
    context.emit({ type: "candidate-start", candidate: job.index, generator: generator.name, sample: job.sample });
    let sql = "";
    try {
      const generated = await generator.generate({
        schema,
        catalog: scope.catalog,
        fullCatalog: options.fullCatalog,
        context: scope.context,
        previousTurns: options.previousTurns,
        examples: options.examples,
        sample: job.sample,
        temperature: job.temperature,
      });
      sql = generated.sql;
      const key = normalizedSqlKey(sql);
      const earlier = byNormalizedSql.get(key);
      let outcome: Outcome;
      let duplicateOf: number | undefined;
      if (earlier) {
        duplicateOf = earlier.index;
        outcome = await earlier.outcome;
      } else {
        const pending = runFixLoop({
          candidate: job.index,
          sql,
          schema,
          context: scope.context,
          policy: options.policy,
          execute,
        }).then(
          (fixed): Outcome => ({ ok: true, fixed, reasoning: fixed.reasoning ?? generated.reasoning }),
          (error: unknown): Outcome => ({ ok: false, error }),
        );
        byNormalizedSql.set(key, { index: job.index, outcome: pending });
        outcome = await pending;
      }
      if (!outcome.ok) throw outcome.error;
      const { fixed } = outcome;
      const rows = fixed.result.result.rows.length;
      records[job.index] = {
        generator: generator.name,
        sample: job.sample,
        sql: fixed.sql,
        revisions: duplicateOf === undefined ? fixed.revisions : 0,
        ok: true,
        rows,
        ...(duplicateOf === undefined ? {} : { duplicateOf }),
        ...(job.reading ? { reading: job.reading.number } : {}),
      };
      executed[job.index] = {
        index: job.index,
        generator: generator.name,
        sql: fixed.sql,
        result: fixed.result,
        ...(job.reading ? { reading: job.reading.number } : {}),
      };
      reasoning.set(job.index, outcome.reasoning);
      context.emit({ type: "candidate-end", candidate: job.index, sql: fixed.sql, ok: true, rows });
    } catch (error) {
      // The client's cancel ends the question; the deadline (a CancelledError without it) only ends this candidate.
      if (context.abortSignal?.aborted) throw error;
      fail(job, sql, error);
    }
  };

  const settled = await Promise.allSettled(jobs.map((job) => limit(() => run(job))));
  const cancelled = settled.find((result) => result.status === "rejected");
  if (cancelled)
    throw context.abortSignal?.aborted ? new CancelledError(undefined, { cause: cancelled.reason }) : cancelled.reason;
  return {
    executed: executed.filter((candidate): candidate is ExecutedCandidate => candidate !== undefined),
    records: records.filter((record): record is CandidateRecord => record !== undefined),
    firstError: firstError?.error,
    reasoning,
  };
}
