import type { SelectionSummary } from "../contract/answer";
import type { InterpretationChoice } from "../interpretations/build-interpretations";

/**
 * The answer's one confidence figure once readings are known: when two readings of a phrase returned different rows,
 * at most the chosen reading's share of the candidates written (so never 1.00 while a reading that returns other rows
 * was left out), with the selection's basis saying so; otherwise the selection's own figure.
 */
export function confidenceWithReadings(
  confidence: number | undefined,
  summary: SelectionSummary,
  choice: InterpretationChoice,
): { confidence: number | undefined; selectionSummary: SelectionSummary } {
  const chosen = choice.interpretations[0];
  if (!choice.readingsDiffer || !chosen) return { confidence, selectionSummary: summary };
  if (confidence !== undefined && confidence <= chosen.share) return { confidence, selectionSummary: summary };
  return {
    confidence: chosen.share,
    selectionSummary: {
      ...summary,
      basis: `${summary.basis}; at most ${chosen.support} of ${summary.candidates} candidates (${Math.round(chosen.share * 100)}%): the readings return different rows`,
    },
  };
}
