import { type Catalog, tableKey } from "../catalog/catalog-types";
import type { KnowledgeEntry, ReadingChoice } from "../contract/knowledge";
import type { FollowedConfirmation, QuestionReading } from "../contract/reading";
import { plainSentence } from "../summary/plain-sentence";
import { type Ambiguity, quotePhrase, type ReadingOption, type ReadingSearch } from "./ambiguity";
import { findColumnReadings } from "./find-column-readings";
import { findJoinPathReadings } from "./find-join-path-readings";
import { findStoredAggregateReadings } from "./find-stored-aggregate-readings";
import { findTableReadings } from "./find-table-readings";
import { containsPhrase, questionWords } from "./schema-words";

/** A reading its candidates are written for, with the tables they need beyond the selected schema. */
export interface PlannedReading extends QuestionReading {
  /** Tables (`schema.table`) its candidates see besides the selected schema. */
  readonly tables: readonly string[];
}

/** What the reading step decided for one question, before generation. */
export interface ReadingPlan {
  /** The readings that get their own candidates (none, or at least two: the options of one phrase). */
  readonly readings: readonly PlannedReading[];
  /** Confirmed readings that decided a phrase instead of asking (rule 5). */
  readonly followed: readonly FollowedConfirmation[];
  /** What every candidate carries for the followed confirmations: instructions and the tables they name. */
  readonly common: { readonly instructions: readonly string[]; readonly tables: readonly string[] };
}

export interface PlanReadingsOptions {
  readonly question: string;
  /** The schema the generators would see. */
  readonly selected: Catalog;
  /** Everything the asking role may read. */
  readonly catalog: Catalog;
  /**
   * Knowledge entries the asking role may see (the composition's `knowledge`); only `reading` entries are read here.
   * Default none.
   */
  readonly knowledge?: readonly KnowledgeEntry[];
  /**
   * Ambiguities the model flagged (`flagReadings`), trusted after every one the schema shows: a phrase the schema's
   * detectors found keeps their options. Default none.
   */
  readonly flagged?: readonly Ambiguity[];
}

/** The order in which found ambiguities are trusted: structure first, names last. */
const kindRank = { "join-path": 0, "stored-aggregate": 1, tables: 2, columns: 3 } as const;

/** Longest label or evidence line, in characters (names come from database objects anyone may have created). */
const maxLabelLength = 200;

/**
 * An ambiguity as surfaces show it and prompts carry it: labels and evidence hold table and column names, so control,
 * zero-width and bidirectional characters are dropped and long ones cut (`plainSentence`); elements stay exact.
 */
function shown(ambiguity: Ambiguity): Ambiguity {
  return {
    ...ambiguity,
    evidence: plainSentence(ambiguity.evidence, maxLabelLength),
    options: ambiguity.options.map((option) => ({ ...option, label: plainSentence(option.label, maxLabelLength) })),
  };
}

/**
 * Every ambiguity the schema shows for the question, most trusted first, then those the model flagged (`flagged`),
 * one per phrase.
 */
export function findAmbiguities(search: ReadingSearch, flagged: readonly Ambiguity[] = []): Ambiguity[] {
  const found = [
    ...[
      ...findJoinPathReadings(search),
      ...findStoredAggregateReadings(search),
      ...findTableReadings(search),
      ...findColumnReadings(search),
    ].sort((left, right) => kindRank[left.kind] - kindRank[right.kind]),
    ...flagged,
  ];
  const phrases = new Set<string>();
  return found
    .filter((ambiguity) => {
      if (phrases.has(ambiguity.phrase)) return false;
      phrases.add(ambiguity.phrase);
      return true;
    })
    .map(shown);
}

function choice(option: ReadingOption): ReadingChoice {
  return { label: option.label, elements: option.elements };
}

function normalizedPhrase(phrase: string): string {
  return questionWords(phrase).join(" ");
}

function sameElement(left: string, right: string): boolean {
  return left.toLowerCase() === right.toLowerCase();
}

/** The option a confirmed reading chose, when it is about the same phrase and its elements are among the options. */
function confirmedOption(ambiguity: Ambiguity, entry: KnowledgeEntry): ReadingOption | undefined {
  const reading = entry.reading;
  if (entry.kind !== "reading" || !reading || reading.chosen.elements.length === 0) return undefined;
  if (normalizedPhrase(reading.phrase) !== normalizedPhrase(ambiguity.phrase)) return undefined;
  return ambiguity.options.find((option) =>
    reading.chosen.elements.every((element) => option.elements.some((own) => sameElement(own, element))),
  );
}

/** The table key (lower case) a chosen element (`schema.table` or `schema.table.column`) is of, if it exists. */
function elementTable(element: string, tableKeys: ReadonlyMap<string, string>): string | undefined {
  const lower = element.toLowerCase();
  if (tableKeys.has(lower)) return lower;
  const prefix = lower.slice(0, Math.max(0, lower.lastIndexOf(".")));
  return tableKeys.has(prefix) ? prefix : undefined;
}

/**
 * A confirmed reading followed though no detector raised its phrase this time (the model flags a synonym on one
 * question and not on the next): the question holds the phrase, and every chosen element is of a table the selected
 * schema shows (the question is about the table the confirmation was about). Its alternatives are set aside as they
 * were confirmed.
 */
function followedWithoutDetector(
  entry: KnowledgeEntry,
  words: readonly string[],
  selected: Catalog,
  catalog: Catalog,
): { followed: FollowedConfirmation; instruction: string; tables: string[] } | undefined {
  const reading = entry.reading;
  if (!reading || reading.chosen.elements.length === 0) return undefined;
  const phraseWords = questionWords(reading.phrase);
  if (!containsPhrase(words, phraseWords)) return undefined;
  const selectedKeys = new Set(selected.tables.map((table) => tableKey(table).toLowerCase()));
  const catalogKeys = new Map(catalog.tables.map((table) => [tableKey(table).toLowerCase(), tableKey(table)]));
  const chosenTables: string[] = [];
  for (const element of reading.chosen.elements) {
    const table = elementTable(element, catalogKeys);
    if (table === undefined || !selectedKeys.has(table)) return undefined;
    chosenTables.push(catalogKeys.get(table)!);
  }
  const phrase = phraseWords.join(" ");
  const setAside = [...reading.alternatives];
  const others = setAside.length > 0 ? `, not ${setAside.map((option) => option.label).join(" or ")}` : "";
  return {
    followed: {
      entryId: entry.id,
      phrase,
      chosen: reading.chosen,
      setAside,
      confirmedBy: entry.sharedWithAllRoles ? "an administrator" : "you",
      confirmedAt: entry.updatedAt,
    },
    instruction: `${quotePhrase(phrase)} means ${reading.chosen.label}${others} (a confirmed reading).`,
    tables: [...new Set(chosenTables)],
  };
}

/** `In this reading of the question, «name» means singer.artist_name, not singer.performer_name.` */
export function readingInstruction(phrase: string, chosen: ReadingChoice, alternatives: readonly ReadingChoice[]) {
  const others = alternatives.map((alternative) => alternative.label).join(" or ");
  return `In this reading of the question, ${quotePhrase(phrase)} means ${chosen.label}, not ${others}.`;
}

/**
 * The reading step's plan (docs/decisions/2026-12-01-readings-knowledge-and-teaching.md, rules 4 and 5), pure: finds
 * the question's ambiguities (`findAmbiguities`: the schema's, then the model's `flagged` ones), lets a confirmed
 * reading the role may see decide each one it matches (same phrase after normalising, its chosen elements among the
 * options: every candidate is then instructed with it and the other options get none) — and follows a confirmation
 * no detector raised this time when the question holds its phrase and the selected schema its chosen tables
 * (`followedWithoutDetector`) — and turns the most trusted remaining one into readings, one per option, each with the
 * instruction its candidates carry. A question without ambiguity gets no readings and is answered as before.
 */
export function planReadings(options: PlanReadingsOptions): ReadingPlan {
  const words = questionWords(options.question);
  const ambiguities = findAmbiguities({ words, selected: options.selected, catalog: options.catalog }, options.flagged);
  const confirmations = (options.knowledge ?? []).filter((entry) => entry.kind === "reading" && entry.reading);
  const followed: FollowedConfirmation[] = [];
  const instructions: string[] = [];
  const tables: string[] = [];
  const open: Ambiguity[] = [];
  for (const ambiguity of ambiguities) {
    const match = confirmations
      .map((entry) => ({ entry, option: confirmedOption(ambiguity, entry) }))
      .find((candidate) => candidate.option !== undefined);
    if (!match?.option) {
      open.push(ambiguity);
      continue;
    }
    const setAside = ambiguity.options.filter((option) => option !== match.option).map(choice);
    followed.push({
      entryId: match.entry.id,
      phrase: ambiguity.phrase,
      chosen: choice(match.option),
      setAside,
      confirmedBy: match.entry.sharedWithAllRoles ? "an administrator" : "you",
      confirmedAt: match.entry.updatedAt,
    });
    instructions.push(
      `${quotePhrase(ambiguity.phrase)} means ${match.option.label}, not ${setAside.map((option) => option.label).join(" or ")} (a confirmed reading).`,
    );
    tables.push(...match.option.tables);
  }
  const used = new Set(followed.map((confirmation) => confirmation.entryId));
  for (const entry of confirmations) {
    if (used.has(entry.id)) continue;
    const direct = followedWithoutDetector(entry, words, options.selected, options.catalog);
    if (!direct) continue;
    if (open.some((ambiguity) => ambiguity.phrase === direct.followed.phrase)) continue;
    used.add(entry.id);
    followed.push(direct.followed);
    instructions.push(direct.instruction);
    tables.push(...direct.tables);
  }
  const [first] = open;
  const readings: PlannedReading[] = first
    ? first.options.map((option, index) => {
        const alternatives = first.options.filter((other) => other !== option).map(choice);
        return {
          number: index + 1,
          kind: first.kind,
          phrase: first.phrase,
          chosen: choice(option),
          alternatives,
          instruction: readingInstruction(first.phrase, option, alternatives),
          evidence: first.evidence,
          tables: option.tables,
        };
      })
    : [];
  return { readings, followed, common: { instructions, tables } };
}
