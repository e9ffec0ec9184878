import {
  type FindReadingsOutput,
  findReadingsOutputSchema,
  findReadingsPrompt,
  findReadingsSystemPrompt,
} from "@nlq/prompts";
import { type Catalog, type TableInfo, tableKey } from "../catalog/catalog-types";
import type { StepContext } from "../llm/step-context";
import { unlessDegradableFailure } from "../llm/step-failure";
import { renderSchema } from "../schema/render-schema";
import { CatalogNames } from "../schema-selection/column-selection";
import { type Ambiguity, type ReadingOption, tableLabel } from "./ambiguity";
import { keyColumns, typeFamily } from "./find-column-readings";
import { areComplementary, containsPhrase, identifierWords, questionWords } from "./schema-words";

/** Most options kept for one flagged phrase, as for the schema's own detectors. */
const maxFlaggedOptions = 3;

/** Phrases of more words than this are not a name of one column or table. */
const maxPhraseWords = 4;

export interface FlagReadingsOptions {
  /** The question's context after schema selection: question, hint (retrieved values), settings, budget. */
  readonly context: StepContext;
  /** The schema the generators will see, shown to the model. */
  readonly selected: Catalog;
}

interface FlaggedColumn {
  readonly table: TableInfo;
  readonly column: string;
}

/** Each meaning as a column of the shown schema (`table.column`, schema-qualified or not), or undefined. */
function resolveColumns(names: CatalogNames, meanings: readonly string[]): FlaggedColumn[] | undefined {
  const found: FlaggedColumn[] = [];
  for (const meaning of meanings) {
    const [match] = names.qualifiedColumn(meaning.trim());
    if (!match) return undefined;
    if (!found.some((other) => other.table === match.table && other.column === match.column)) found.push(match);
  }
  return found;
}

/** Each meaning as a table of the shown schema, or undefined. */
function resolveTables(names: CatalogNames, meanings: readonly string[]): TableInfo[] | undefined {
  const found: TableInfo[] = [];
  for (const meaning of meanings) {
    const matches = names.tables(meaning.trim());
    if (matches.length !== 1) return undefined;
    if (!found.includes(matches[0]!)) found.push(matches[0]!);
  }
  return found;
}

/**
 * Whether flagged columns are two words for one thing, as the schema's own column detector asks
 * (`find-column-readings.ts`): none is a key, they hold the same kind of value, none is named by the phrase alone
 * (a column `weight` is what "weight" means), and no two differ by qualifiers that are two sides of one thing
 * (`first_name`/`last_name`, `start_date`/`end_date`).
 */
function areSynonymColumns(columns: readonly FlaggedColumn[], phraseWords: readonly string[]): boolean {
  const phrase = phraseWords.join(" ");
  const info = columns.map(({ table, column }) => table.columns.find((candidate) => candidate.name === column)!);
  if (columns.some(({ table, column }) => keyColumns(table).has(column))) return false;
  if (new Set(info.map(typeFamily)).size > 1) return false;
  const words = columns.map(({ column }) => identifierWords(column));
  if (words.some((own) => own.join(" ") === phrase)) return false;
  return words.every((own, index) => words.slice(index + 1).every((other) => !areSidesOfOneThing(own, other)));
}

/** Whether two columns' names differ by two sides of one thing (`first_name`, `last_name`; `line1`, `line2`). */
function areSidesOfOneThing(left: readonly string[], right: readonly string[]): boolean {
  const onlyRight = right.filter((word) => !left.includes(word));
  return left.some((word) => !right.includes(word) && onlyRight.some((other) => areComplementary(word, other)));
}

function columnOption({ table, column }: FlaggedColumn): ReadingOption {
  return {
    label: `${tableLabel(table.schema, table.name)}.${column}`,
    elements: [`${tableKey(table)}.${column}`],
    tables: [tableKey(table)],
  };
}

function tableOption(table: TableInfo): ReadingOption {
  return { label: tableLabel(table.schema, table.name), elements: [tableKey(table)], tables: [tableKey(table)] };
}

/**
 * The model's flags as the reading step's ambiguities, keeping only what the schema bears out: the phrase is words
 * of the question (at most four, in order), every meaning is a column (or every one a table) of the shown schema, at
 * least two distinct ones, and flagged columns pass the schema detector's own synonym rules (`areSynonymColumns`).
 * Anything else — a phrase the question does not hold, a name that does not exist, a column beside its table, a key
 * beside a name — is dropped, not repaired. One ambiguity per phrase, in the model's order.
 */
export function flaggedAmbiguities(output: FindReadingsOutput, question: string, selected: Catalog): Ambiguity[] {
  const words = questionWords(question);
  const names = new CatalogNames(selected);
  const found: Ambiguity[] = [];
  for (const flag of output.phrases) {
    const phraseWords = questionWords(flag.phrase);
    if (phraseWords.length === 0 || phraseWords.length > maxPhraseWords || !containsPhrase(words, phraseWords))
      continue;
    const phrase = phraseWords.join(" ");
    if (found.some((other) => other.phrase === phrase)) continue;
    const meanings = flag.meanings.filter((meaning) => meaning.trim() !== "");
    const columns = meanings.every((meaning) => meaning.includes(".")) ? resolveColumns(names, meanings) : undefined;
    const tables = columns ? undefined : resolveTables(names, meanings);
    let options: ReadingOption[];
    if (columns && columns.length >= 2 && areSynonymColumns(columns, phraseWords)) options = columns.map(columnOption);
    else if (tables && tables.length >= 2) options = tables.map(tableOption);
    else continue;
    const kept = options.slice(0, maxFlaggedOptions);
    const reason = flag.reason.replace(/\s+/g, " ").trim();
    found.push({
      kind: columns ? "columns" : "tables",
      phrase,
      options: kept,
      evidence: `${kept.map((option) => option.label).join(", ")} all fit "${phrase}" (flagged by the model${reason ? `: ${reason}` : ""})`,
    });
  }
  return found;
}

/**
 * The reading step's model call (step `find-readings`): phrases of the question that two or more columns or tables
 * of the selected schema fit about equally and that the schema's names alone cannot relate (AmbiQT's column synonyms:
 * `mass`, `body_weight` for "weight"), as ambiguities (`flaggedAmbiguities`). A failed call the question survives
 * (`unlessDegradableFailure`: no scripted reply, a spent budget, an unreadable reply) flags nothing.
 */
export async function flagReadings(options: FlagReadingsOptions): Promise<Ambiguity[]> {
  const { context } = options;
  const output = await unlessDegradableFailure(context, () =>
    context.runModelStep({
      step: "find-readings",
      schema: findReadingsOutputSchema,
      system: findReadingsSystemPrompt,
      prompt: findReadingsPrompt({
        question: context.question,
        hint: context.hint,
        schema: renderSchema(options.selected),
        ...(context.questionContext ? { questionContext: context.questionContext } : {}),
      }),
    }),
  );
  return output ? flaggedAmbiguities(output, context.question, options.selected) : [];
}
