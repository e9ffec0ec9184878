import type { WebThreadStore } from "@nlq/adapters";
import { InterpretationNotFoundError } from "@nlq/engine";
import type { AnswerData } from "./chat-message";

type Interpretation = NonNullable<AnswerData["interpretations"]>[number];

/** A reading of one of the user's stored answers, with the question it answered and every reading offered. */
export interface StoredReading {
  readonly question: string;
  readonly picked: Interpretation;
  readonly interpretations: readonly Interpretation[];
}

/**
 * Reading `number` of the answer stored for the user's own turn `turnId` — what a pick runs and a confirmation keeps,
 * never what the browser sends. Undefined when the user has no such turn (or it holds no answer); throws
 * `InterpretationNotFoundError` for a number the answer does not offer.
 */
export async function storedReading(
  threads: Pick<WebThreadStore, "turn">,
  user: { readonly role: string; readonly dataSource: string },
  turnId: string,
  number: number,
): Promise<StoredReading | undefined> {
  const turn = await threads.turn(user, turnId);
  const answer = (turn?.reply as { answer?: AnswerData } | undefined)?.answer;
  if (!turn || !answer) return undefined;
  const interpretations = answer.interpretations ?? [];
  const picked = interpretations.find((interpretation) => interpretation.number === number);
  if (!picked || interpretations.length < 2) throw new InterpretationNotFoundError(number, interpretations.length);
  return { question: turn.question, picked, interpretations };
}
