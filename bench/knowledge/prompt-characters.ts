/** What a captured model request (the relay's `<dir>/log/<id>.request.json`) put before the model, and whose it was. */

/** The prompt text of a request body: every string under `instructions`, `input` (Responses API) and `messages`. */
export function requestPromptText(body: unknown): string {
  const parts: string[] = [];
  const collect = (value: unknown) => {
    if (typeof value === "string") parts.push(value);
    else if (Array.isArray(value)) for (const item of value) collect(item);
    else if (value !== null && typeof value === "object") {
      for (const [key, inner] of Object.entries(value)) if (key !== "type" && key !== "role") collect(inner);
    }
  };
  const request = (body ?? {}) as Record<string, unknown>;
  collect(request.instructions);
  collect(request.input);
  collect(request.messages);
  return parts.join("\n");
}

export interface AskedQuestion {
  readonly id: string;
  readonly question: string;
}

export interface PromptFigures {
  /** Characters of every prompt that carried the question, per question id (0 when none did). */
  readonly charactersByQuestion: ReadonlyMap<string, number>;
  /** Requests per question id. */
  readonly requestsByQuestion: ReadonlyMap<string, number>;
  /** Requests that carried no question of the sample (or several with the same text). */
  readonly unattributed: number;
}

/**
 * Attributes each prompt to the question whose text it carries (every step's prompt repeats the question): the
 * longest matching question text wins, so a question that is a prefix of another is not credited with its prompts.
 */
export function attributePrompts(prompts: readonly string[], questions: readonly AskedQuestion[]): PromptFigures {
  const characters = new Map(questions.map((question) => [question.id, 0]));
  const requests = new Map(questions.map((question) => [question.id, 0]));
  const byLength = [...questions].sort((left, right) => right.question.length - left.question.length);
  let unattributed = 0;
  for (const prompt of prompts) {
    const owner = byLength.find((question) => prompt.includes(question.question));
    const twins = owner ? questions.filter((question) => question.question === owner.question).length : 0;
    if (!owner || twins > 1) {
      unattributed += 1;
      continue;
    }
    characters.set(owner.id, (characters.get(owner.id) ?? 0) + prompt.length);
    requests.set(owner.id, (requests.get(owner.id) ?? 0) + 1);
  }
  return { charactersByQuestion: characters, requestsByQuestion: requests, unattributed };
}

/** The median of `values` (0 for none). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
