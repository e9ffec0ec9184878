/**
 * Exit code of a command refused for its input before any work: a bad option value, an empty question, an unknown
 * option, a missing argument (`main.ts` maps commander's own usage errors to it too).
 */
export const USAGE_EXIT_CODE = 2;
