import { ConfigurationError } from "../../errors/configuration-error";
import { NlqError } from "../../errors/nlq-error";
import { type DenseFeatureName, denseFeatureNames } from "./learned-features";

/** Format tag of the artefact written by `bench/retrieval-training/train.ts`. */
export const learnedRetrievalModelFormat = "nlq-learned-retrieval";

/**
 * A learnt column-ranking model: a linear score over dense lexical features and sparse (question term × schema token)
 * association weights, applied to the lexical top candidates (`candidateLimit`).
 */
export interface LearnedRetrievalModel {
  readonly format: typeof learnedRetrievalModelFormat;
  /** Artefact version, e.g. `retrieval-model-v3`. */
  readonly version: string;
  /** Lexical candidates re-scored per question. */
  readonly candidateLimit: number;
  readonly dense: Readonly<Record<DenseFeatureName, number>>;
  readonly sparse: ReadonlyMap<string, number>;
  /** What it was trained on (counts, seed, held-out databases); informational. */
  readonly training: Readonly<Record<string, unknown>>;
}

const learnedModelErrorMarker = Symbol.for("nlq.error.LearnedModelError");

/** The artefact was not a learnt retrieval model. SQLSTATE F0000 like other configuration errors. */
export class LearnedModelError extends ConfigurationError {
  readonly [learnedModelErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is LearnedModelError {
    return NlqError.hasMarker(error, learnedModelErrorMarker);
  }
}

/** The JSON form of a model (sparse weights as an object, keys sorted so the file is deterministic). */
export function learnedModelToJson(model: LearnedRetrievalModel): Record<string, unknown> {
  const sparse: Record<string, number> = {};
  for (const key of [...model.sparse.keys()].sort()) sparse[key] = model.sparse.get(key)!;
  return {
    format: model.format,
    version: model.version,
    candidateLimit: model.candidateLimit,
    dense: model.dense,
    training: model.training,
    sparse,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Validates a parsed artefact and turns it into a model; throws `LearnedModelError` when it is malformed. */
export function parseLearnedRetrievalModel(value: unknown): LearnedRetrievalModel {
  if (!isRecord(value) || value.format !== learnedRetrievalModelFormat)
    throw new LearnedModelError(`not a learnt retrieval model (expected format "${learnedRetrievalModelFormat}")`);
  const { version, candidateLimit, dense, sparse, training } = value;
  if (typeof version !== "string" || version === "") throw new LearnedModelError("learnt model: missing version");
  if (typeof candidateLimit !== "number" || !Number.isInteger(candidateLimit) || candidateLimit <= 0)
    throw new LearnedModelError("learnt model: candidateLimit must be a positive integer");
  if (!isRecord(dense) || !isRecord(sparse)) throw new LearnedModelError("learnt model: dense and sparse weights");
  const denseWeights = {} as Record<DenseFeatureName, number>;
  for (const name of denseFeatureNames) {
    const weight = dense[name];
    if (typeof weight !== "number" || !Number.isFinite(weight))
      throw new LearnedModelError(`learnt model: dense weight "${name}" missing`);
    denseWeights[name] = weight;
  }
  const sparseWeights = new Map<string, number>();
  for (const [key, weight] of Object.entries(sparse)) {
    if (typeof weight !== "number" || !Number.isFinite(weight))
      throw new LearnedModelError(`learnt model: sparse weight "${key}" is not a number`);
    sparseWeights.set(key, weight);
  }
  return {
    format: learnedRetrievalModelFormat,
    version,
    candidateLimit,
    dense: denseWeights,
    sparse: sparseWeights,
    training: isRecord(training) ? training : {},
  };
}
