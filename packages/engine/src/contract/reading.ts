import type { ReadingChoice } from "./knowledge";

/**
 * What kind of doubt the reading step found (docs/decisions/2026-12-01-readings-knowledge-and-teaching.md, rule 4):
 * - `columns`: several columns of one table fit one phrase (`artist_name`, `performer_name` for "name");
 * - `tables`: several tables fit (copies with the same columns, or tables of one name across a warehouse's schemas);
 * - `join-path`: a column read directly, or through a split-out table that holds it too;
 * - `stored-aggregate`: an aggregate computed from rows, or read from a table that stores it.
 */
export type ReadingKind = "columns" | "tables" | "join-path" | "stored-aggregate";

/**
 * One reading of the question that candidates were written for: what one phrase is taken to mean, and what it could
 * have meant instead. Found from the schema and retrieval, before generation; every candidate of the reading is
 * instructed with it (`instruction`).
 */
export interface QuestionReading {
  /** Its number among the answer's readings, from 1 (candidates name it in `CandidateRecord.reading`). */
  readonly number: number;
  readonly kind: ReadingKind;
  /** The phrase of the question (or, for copies the question names no word of, the tables' names) it is about. */
  readonly phrase: string;
  /** What the phrase means in this reading. */
  readonly chosen: ReadingChoice;
  /** What else it could mean (the other options of the same phrase). */
  readonly alternatives: readonly ReadingChoice[];
  /** The sentence its candidates' prompts carried, e.g. `In this reading, «name» means singer.artist_name.` */
  readonly instruction: string;
  /** Why the step thinks the phrase is in doubt (the schema evidence), in words. */
  readonly evidence: string;
}

/** A confirmed reading (a `reading` knowledge entry) that decided a phrase before generation (rule 5). */
export interface FollowedConfirmation {
  /** The knowledge entry's id. */
  readonly entryId: string;
  readonly phrase: string;
  /** What the phrase was taken to mean, as confirmed. */
  readonly chosen: ReadingChoice;
  /** The options that got no candidates because of it. */
  readonly setAside: readonly ReadingChoice[];
  /** Whose confirmation: the asking role's own (`you`) or an administrator's, shared with every role. */
  readonly confirmedBy: "you" | "an administrator";
  /** When it was confirmed or last changed (ISO 8601). */
  readonly confirmedAt: string;
}
