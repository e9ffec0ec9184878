export * from "./extract-keywords";
export * from "./heuristic-keywords";
export * from "./question-keywords";
