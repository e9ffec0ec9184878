import type { Interpretation } from "../contract/interpretation";
import type { ConfirmedReading } from "../contract/knowledge";
import type { QuestionReading } from "../contract/reading";
import type { CandidateCluster } from "../selection/candidate-selector";
import { quotePhrase } from "./ambiguity";

/**
 * The reading a cluster stands for: the one most of its members were written for (ties: its first member's), as a
 * confirmation would store it. Undefined when its members followed no reading.
 */
export function readingOfCluster(
  cluster: CandidateCluster,
  readings: readonly QuestionReading[],
): ConfirmedReading | undefined {
  const counts = new Map<number, number>();
  for (const member of cluster.members) {
    if (member.reading !== undefined) counts.set(member.reading, (counts.get(member.reading) ?? 0) + 1);
  }
  let best: number | undefined;
  for (const [number, count] of counts) if (best === undefined || count > counts.get(best)!) best = number;
  const reading = readings.find((candidate) => candidate.number === best);
  return reading ? { phrase: reading.phrase, chosen: reading.chosen, alternatives: reading.alternatives } : undefined;
}

/** Whether two interpretations stand for different readings of the phrase: the readings returned different rows. */
export function readingsDiffer(interpretations: readonly Interpretation[]): boolean {
  const labels = new Set(interpretations.flatMap((reading) => (reading.reading ? [reading.reading.chosen.label] : [])));
  return labels.size > 1;
}

/**
 * Whether to ask when the readings of a phrase returned different rows: yes, unless asking is switched off or one
 * reading is clearly preferred — the chosen one returns rows and every other reading returns none.
 */
export function decideReadingChoice(
  interpretations: readonly Interpretation[],
  threshold: number,
): { needsChoice: boolean; choiceBasis: string } {
  const [chosen] = interpretations;
  const phrase = interpretations.find((reading) => reading.reading)?.reading?.phrase ?? "";
  const byReading = interpretations
    .filter((reading) => reading.reading)
    .map((reading) => `${reading.reading!.chosen.label} (#${reading.number})`);
  const readingList = `${quotePhrase(phrase)} can mean ${byReading.join(" or ")}`;
  if (threshold <= 0) {
    return {
      needsChoice: false,
      choiceBasis: `${readingList}, and they return different rows; asking is switched off (NLQ_ASK_WHEN_SUPPORT_BELOW=${threshold})`,
    };
  }
  const others = interpretations.filter(
    (reading) =>
      reading !== chosen && reading.reading && reading.reading.chosen.label !== chosen?.reading?.chosen.label,
  );
  if (chosen && chosen.rowCount > 0 && others.length > 0 && others.every((reading) => reading.rowCount === 0)) {
    return {
      needsChoice: false,
      choiceBasis: `${readingList}; only #${chosen.number} returns rows, so it is preferred`,
    };
  }
  return { needsChoice: true, choiceBasis: `${readingList}, and they return different rows` };
}
