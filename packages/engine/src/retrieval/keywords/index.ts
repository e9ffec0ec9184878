export * from "./extract-keywords";
export * from "./heuristic-keywords";
