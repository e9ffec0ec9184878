/**
 * CRUSH4SQL collective selection (paper §3.2.2, Eq. 1-6) as pure functions over a cosine matrix.
 * `cosines[k][d]` is cos(k, d) for hallucinated probe k and candidate column d ∈ C(x).
 */

/** Log-sum-exp soft maximum with temperature: τ·log Σ exp(s/τ). τ = 1 is the paper's Eq. 3; the empty set scores 0. */
export function softMaximum(scores: readonly number[], temperature = 1): number {
  if (scores.length === 0) return 0;
  const largest = Math.max(...scores);
  let sum = 0;
  for (const score of scores) sum += Math.exp((score - largest) / temperature);
  return largest + temperature * Math.log(sum);
}

/** Eq. 1: the probe's multinomial over candidates, p(d) ∝ (1 + cos(k, d)) / 2, and its entropy H(k) in nats. */
export function probeEntropy(cosinesOfProbe: readonly number[]): number {
  const masses = cosinesOfProbe.map((cosine) => (1 + cosine) / 2);
  const total = masses.reduce((sum, mass) => sum + mass, 0);
  if (total === 0) return 0;
  let entropy = 0;
  for (const mass of masses) {
    const probability = mass / total;
    if (probability > 0) entropy -= probability * Math.log(probability);
  }
  return entropy;
}

function sigmoid(value: number): number {
  return 1 / (1 + Math.exp(-value));
}

/** Eq. 2: s(k, d) = ½(1 + cos(k, d)) · σ(H̄ − H(k)), H̄ the mean entropy over all probes. */
export function entropyGuidedScores(cosines: readonly (readonly number[])[]): number[][] {
  const entropies = cosines.map(probeEntropy);
  const meanEntropy = entropies.reduce((sum, entropy) => sum + entropy, 0) / Math.max(1, entropies.length);
  return cosines.map((row, probe) => {
    const damping = sigmoid(meanEntropy - (entropies[probe] ?? 0));
    return row.map((cosine) => ((1 + cosine) / 2) * damping);
  });
}

/** Hyperparameters of the objective. */
export interface CrushObjectiveOptions {
  /** λ, weight of connectivity O2 against coverage O1 (Eq. 6). Default 1 (the paper's value). */
  readonly connectivityWeight?: number;
  /** Temperature τ of the coverage soft maximum (Eq. 3). Default 1 (the paper's plain log-sum-exp). */
  readonly coverageTemperature?: number;
}

/** Eq. 4: O1(R) = Σ_k smx(s(k, d) : d ∈ R). */
export function coverageScore(
  scores: readonly (readonly number[])[],
  selected: readonly number[],
  temperature = 1,
): number {
  return scores.reduce(
    (sum, row) =>
      sum +
      softMaximum(
        selected.map((column) => row[column] ?? 0),
        temperature,
      ),
    0,
  );
}

/** Eq. 5: O2(R) = Σ_{d ∈ R} smx(e(d, d') : d' ∈ R, d' ≠ d). */
export function connectivityScore(edge: (left: number, right: number) => number, selected: readonly number[]): number {
  return selected.reduce(
    (sum, column) =>
      sum + softMaximum(selected.filter((other) => other !== column).map((other) => edge(column, other))),
    0,
  );
}

/** Eq. 6's objective O1(R) + λ·O2(R). */
export function crushObjective(
  scores: readonly (readonly number[])[],
  edge: (left: number, right: number) => number,
  selected: readonly number[],
  options: CrushObjectiveOptions = {},
): number {
  const coverage = coverageScore(scores, selected, options.coverageTemperature ?? 1);
  return coverage + (options.connectivityWeight ?? 1) * connectivityScore(edge, selected);
}

/**
 * Greedy maximisation of Eq. 6: repeatedly adds the candidate with the largest gain until `budget` candidates are
 * chosen (or none is left). Returns candidate indexes in the order picked, so every prefix is the greedy answer for
 * the smaller budget. Ties go to the lower index.
 */
export function greedyCrushSelection(
  scores: readonly (readonly number[])[],
  edge: (left: number, right: number) => number,
  candidateCount: number,
  budget: number,
  options: CrushObjectiveOptions = {},
): number[] {
  const temperature = options.coverageTemperature ?? 1;
  const connectivityWeight = options.connectivityWeight ?? 1;
  // exp(s/τ) per probe and candidate; smx over a set is τ·log of the sum of its members' terms (0 for the empty set).
  const coverageTerms = scores.map((row) =>
    Float64Array.from({ length: candidateCount }, (_, column) => Math.exp((row[column] ?? 0) / temperature)),
  );
  // exp(e(d, d')) for every candidate pair; only consulted when connectivity counts.
  const edgeTerms =
    connectivityWeight === 0
      ? []
      : Array.from({ length: candidateCount }, (_, left) =>
          Float64Array.from({ length: candidateCount }, (_, right) =>
            left === right ? 0 : Math.exp(edge(left, right)),
          ),
        );
  const logOrZero = (sum: number) => (sum === 0 ? 0 : Math.log(sum));
  const coverageSums = new Float64Array(scores.length);
  const edgeSums: number[] = [];
  const selected: number[] = [];
  const taken = new Uint8Array(candidateCount);
  while (selected.length < budget && selected.length < candidateCount) {
    let bestColumn = -1;
    let bestGain = Number.NEGATIVE_INFINITY;
    for (let column = 0; column < candidateCount; column++) {
      if (taken[column]) continue;
      let gain = 0;
      for (let probe = 0; probe < coverageTerms.length; probe++) {
        const before = coverageSums[probe]!;
        gain += temperature * (logOrZero(before + coverageTerms[probe]![column]!) - logOrZero(before));
      }
      if (connectivityWeight !== 0 && selected.length > 0) {
        const row = edgeTerms[column]!;
        let ownSum = 0;
        let othersGain = 0;
        for (let position = 0; position < selected.length; position++) {
          const weight = row[selected[position]!]!;
          ownSum += weight;
          const before = edgeSums[position]!;
          othersGain += logOrZero(before + weight) - logOrZero(before);
        }
        gain += connectivityWeight * (logOrZero(ownSum) + othersGain);
      }
      if (gain > bestGain) {
        bestGain = gain;
        bestColumn = column;
      }
    }
    for (let probe = 0; probe < coverageTerms.length; probe++) {
      coverageSums[probe] = coverageSums[probe]! + coverageTerms[probe]![bestColumn]!;
    }
    if (connectivityWeight !== 0) {
      const row = edgeTerms[bestColumn]!;
      let ownSum = 0;
      for (let position = 0; position < selected.length; position++) {
        const weight = row[selected[position]!]!;
        ownSum += weight;
        edgeSums[position] = edgeSums[position]! + weight;
      }
      edgeSums.push(ownSum);
    }
    selected.push(bestColumn);
    taken[bestColumn] = 1;
  }
  return selected;
}
