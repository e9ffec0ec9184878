/**
 * The answer's one confidence figure, the one every surface shows (docs/decisions/2026-12-02-one-confidence-figure.md):
 * when the candidates returned different rows, at most the chosen result's share of the candidates written — the
 * support its interpretation shows ("9 of 10 candidates") — whatever the selector said. A pairwise win rate of 10 of
 * 10 beside a result one candidate in ten disagreed with is then 90%, not 100%; a selector that doubts more than the
 * agreement does (a lower win rate) keeps its lower figure. The basis says when the cap applied.
 */
export function confidenceCappedByAgreement(
  outcome: { readonly confidence?: number; readonly basis: string },
  agreeing: number,
  written: number,
): { confidence?: number; basis: string } {
  const share = written > 0 ? agreeing / written : 0;
  if (outcome.confidence === undefined || outcome.confidence <= share) return outcome;
  return {
    confidence: share,
    basis: `${outcome.basis}; at most ${agreeing} of ${written} candidates (${Math.round(share * 100)}%): the others returned different rows`,
  };
}
