import type { AnswerWithInterpretationOptions } from "@nlq/engine";

/** A pick of one interpretation of the connection's last answer (`question` is that answer's, for the audit trail). */
export type PickOptions = AnswerWithInterpretationOptions & { readonly question: string };
