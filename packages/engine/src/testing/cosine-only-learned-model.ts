import { denseFeatureNames } from "../retrieval/learned/learned-features";
import {
  type LearnedRetrievalModel,
  learnedRetrievalModelFormat,
  parseLearnedRetrievalModel,
} from "../retrieval/learned/learned-retrieval-model";

/**
 * Test helper: a learnt retrieval model whose only dense weight is the embedder's cosine (1; every other dense feature
 * 0), with the given sparse weights, re-ranking the lexical top `candidateLimit`. Built through the artefact parser, so
 * it is a model the product would load.
 */
export function cosineOnlyLearnedModel(sparse: Record<string, number>, candidateLimit = 12): LearnedRetrievalModel {
  return parseLearnedRetrievalModel({
    format: learnedRetrievalModelFormat,
    version: "test",
    candidateLimit,
    dense: { ...Object.fromEntries(denseFeatureNames.map((name) => [name, 0])), cosine: 1 },
    sparse,
  });
}
