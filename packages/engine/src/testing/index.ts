// Test helpers of @nlq/engine (`@nlq/engine/testing`; kept out of the main entry: they load `ai/test`).

export { promptText } from "../models/prompt-text";
export { cosineOnlyLearnedModel } from "./cosine-only-learned-model";
export { cappedResult, executedCandidate } from "./executed-candidate";
export { mockTextModel, mockTextResult, stepOf } from "./mock-text-model";
export { oneEventOfEachType } from "./one-event-of-each-type";
export { type RecordedCall, recordingStepContext } from "./recording-step-context";
export { singleCandidateSelection } from "./single-candidate-selection";
