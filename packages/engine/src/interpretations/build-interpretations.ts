import { type Interpretation, interpretationPreviewRows } from "../contract/interpretation";
import type { QuestionReading } from "../contract/reading";
import { decideReadingChoice, readingOfCluster, readingsDiffer } from "../readings/reading-choice";
import type { CandidateCluster } from "../selection/candidate-selector";
import { type ComparedReading, describeDifference } from "./describe-difference";

export interface BuildInterpretationsOptions {
  /** The execution clusters, largest first (`clusterCandidates`). */
  readonly clusters: readonly CandidateCluster[];
  /** Index of the chosen cluster in `clusters`. */
  readonly chosenCluster: number;
  /** Candidates written, failed ones included (the denominator of each reading's share). */
  readonly written: number;
  /** `NLQ_ASK_WHEN_SUPPORT_BELOW`: ask when the chosen reading's share is below it; 0 never asks. */
  readonly askWhenSupportBelow: number;
  /**
   * The readings the candidates were written for (`Answer.readings`): each interpretation carries the one most of its
   * candidates followed, and when two interpretations stand for different readings the choice is the readings' to
   * decide (`decideReadingChoice`), not the support's. Default none.
   */
  readonly readings?: readonly QuestionReading[];
}

/** The readings of one question and whether nlq should ask which one is meant before answering. */
export interface InterpretationChoice {
  /** Every cluster as a reading, the chosen one first, then the others largest first; empty when all agreed. */
  readonly interpretations: readonly Interpretation[];
  /**
   * True when the evidence shows no clear choice: the chosen reading's share of the candidates is below
   * `askWhenSupportBelow`, or another reading has at least as much support. Surfaces still show the chosen rows and
   * offer the readings (the proxy's NOTICE, the web app's buttons, MCP's elicitation) — they ask, they do not block.
   */
  readonly needsChoice: boolean;
  /** Why `needsChoice` is what it is, in words a person can read. */
  readonly choiceBasis: string;
  /** True when two interpretations stand for different readings of a phrase (they returned different rows). */
  readonly readingsDiffer: boolean;
}

/** A reading as `describeDifference` compares it: SQL, columns, the preview rows and the row count. */
function comparedReading(cluster: CandidateCluster): ComparedReading {
  const { sql, result } = cluster.representative;
  return {
    sql,
    columns: result.result.fields.map((field) => field.name),
    rows: result.result.rows.slice(0, interpretationPreviewRows),
    rowCount: result.result.rows.length,
    truncated: result.truncated,
  };
}

function percent(share: number): string {
  return `${Math.round(share * 100)}%`;
}

function decide(
  chosen: Interpretation,
  others: readonly Interpretation[],
  written: number,
  threshold: number,
): { needsChoice: boolean; choiceBasis: string } {
  const setting = `NLQ_ASK_WHEN_SUPPORT_BELOW=${threshold}`;
  const support = `${chosen.support} of ${written} candidates (${percent(chosen.share)})`;
  if (threshold <= 0) return { needsChoice: false, choiceBasis: `asking is switched off (${setting})` };
  if (chosen.share < threshold) {
    return { needsChoice: true, choiceBasis: `the chosen reading has ${support}, below ${setting}` };
  }
  const rival = others.find((other) => other.support >= chosen.support);
  if (rival) {
    return {
      needsChoice: true,
      choiceBasis: `reading #${rival.number} has as much support as the chosen one (${rival.support} against ${chosen.support} of ${written} candidates)`,
    };
  }
  return { needsChoice: false, choiceBasis: `the chosen reading has ${support}, at least ${setting}` };
}

/**
 * Turns the execution clusters of one question into interpretations: each cluster's SQL, support, first rows (as
 * executed under the asking role: nothing runs again) and a computed line saying how it differs from the chosen one
 * (`describeDifference`). One cluster: no interpretations and no question to ask. Needs `loadSqlParser()`.
 */
export function buildInterpretations(options: BuildInterpretationsOptions): InterpretationChoice {
  const { clusters, written } = options;
  const chosenCluster = clusters[options.chosenCluster];
  if (clusters.length < 2 || !chosenCluster) {
    return {
      interpretations: [],
      needsChoice: false,
      choiceBasis:
        (options.readings?.length ?? 0) > 1
          ? "the readings of the question returned one result"
          : "the candidates that ran returned one result",
      readingsDiffer: false,
    };
  }
  const total = Math.max(1, written);
  const chosenReading = comparedReading(chosenCluster);
  const ordered = [chosenCluster, ...clusters.filter((cluster) => cluster !== chosenCluster)];
  const interpretations = ordered.map((cluster, index): Interpretation => {
    const reading = index === 0 ? chosenReading : comparedReading(cluster);
    const questionReading = readingOfCluster(cluster, options.readings ?? []);
    return {
      number: index + 1,
      chosen: index === 0,
      sql: reading.sql,
      support: cluster.members.length,
      share: cluster.members.length / total,
      columns: reading.columns,
      rows: reading.rows,
      rowCount: reading.rowCount,
      truncated: reading.truncated,
      difference: index === 0 ? "the chosen reading" : describeDifference(reading, chosenReading),
      ...(questionReading ? { reading: questionReading } : {}),
    };
  });
  const [chosen, ...others] = interpretations as [Interpretation, ...Interpretation[]];
  if (readingsDiffer(interpretations)) {
    return {
      interpretations,
      ...decideReadingChoice(interpretations, options.askWhenSupportBelow),
      readingsDiffer: true,
    };
  }
  return { interpretations, ...decide(chosen, others, total, options.askWhenSupportBelow), readingsDiffer: false };
}
