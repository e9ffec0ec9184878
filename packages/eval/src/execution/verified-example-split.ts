import { seededRandom, similarExamples, type VerifiedExample } from "@nlq/engine";
import { expandGoldAlternatives } from "./gold-alternatives";
import type { GoldQuestion } from "./question-set";

/** A question set cut in two: one half's gold pairs act as verified examples, the other half is answered. */
export interface VerifiedExampleSplit {
  /** Questions whose question–gold pairs become verified examples (never answered). */
  readonly examples: readonly GoldQuestion[];
  /** Questions answered with and without the examples, in file order. */
  readonly heldOut: readonly GoldQuestion[];
}

/**
 * Splits `questions` in two halves by a seeded rule, per schema (a data source's examples are only shown for its own
 * questions, as in the web app): the questions of each schema, in file order, are shuffled (Fisher–Yates with
 * `seededRandom(seed)`, one generator for all schemas in order of first appearance) and the first half (rounded down)
 * becomes examples, the rest is held out. The same questions and seed give the same split.
 */
export function splitForVerifiedExamples(questions: readonly GoldQuestion[], seed: number): VerifiedExampleSplit {
  const random = seededRandom(seed);
  const bySchema = new Map<string | undefined, number[]>();
  questions.forEach((question, index) => {
    const indexes = bySchema.get(question.schema) ?? [];
    indexes.push(index);
    bySchema.set(question.schema, indexes);
  });
  const exampleIndexes = new Set<number>();
  for (const indexes of bySchema.values()) {
    const shuffled = [...indexes];
    for (let position = shuffled.length - 1; position > 0; position -= 1) {
      const other = Math.floor(random() * (position + 1));
      [shuffled[position], shuffled[other]] = [shuffled[other]!, shuffled[position]!];
    }
    for (const index of shuffled.slice(0, Math.floor(shuffled.length / 2))) exampleIndexes.add(index);
  }
  return {
    examples: questions.filter((_, index) => exampleIndexes.has(index)),
    heldOut: questions.filter((_, index) => !exampleIndexes.has(index)),
  };
}

/**
 * The verified-example SQL of a gold query: its first alternative (defog's `;` list) with every listed column of a
 * `{a,b}` choice — one runnable query, as a person would have accepted it.
 */
export function exampleSql(gold: string): string {
  const first = gold.split(";").find((part) => part.trim() !== "") ?? gold;
  return expandGoldAlternatives(first).at(-1) ?? first.trim();
}

/**
 * The verified examples a held-out question is given: the example half's pairs of the same schema most similar to it,
 * chosen by the web app's similarity (`similarExamples`: Jaccard over content words, at most 3, at least 0.3).
 */
export function verifiedExamplesFrom(
  examples: readonly GoldQuestion[],
): (question: GoldQuestion) => readonly VerifiedExample[] {
  const pairs = examples.map((example) => ({
    schema: example.schema,
    question: example.question,
    sql: exampleSql(example.gold),
  }));
  return (question) =>
    similarExamples(
      question.question,
      pairs.filter((pair) => pair.schema === question.schema),
    ).map((pair) => ({ question: pair.question, sql: pair.sql }));
}
