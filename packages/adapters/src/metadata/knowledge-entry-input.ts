import {
  type ConfirmedReading,
  type KnowledgeKind,
  type KnowledgeOrigin,
  knowledgeSqlNames,
  type ReadingChoice,
} from "@nlq/engine";
import { KnowledgeEntryError } from "./knowledge-errors";

/** Every kind of knowledge entry. */
export const knowledgeKinds: readonly KnowledgeKind[] = ["term", "metric", "description", "rule", "reading"];
/** Every origin of a knowledge entry. */
export const knowledgeOrigins: readonly KnowledgeOrigin[] = [
  "manual",
  "dbt",
  "yaml",
  "comment",
  "catalog-files",
  "reading",
  "suggestion",
];

/** Longest name, text, SQL and reference kept; most references per entry. */
export const knowledgeLimits = {
  name: 200,
  text: 4_000,
  sql: 4_000,
  reference: 200,
  references: 64,
} as const;

/** The content of an entry, as a caller gives it. */
export interface KnowledgeEntryContent {
  readonly kind: KnowledgeKind;
  readonly name: string;
  readonly text: string;
  /** A metric's SQL expression or a rule's SQL condition. Default: none. */
  readonly sql?: string;
  /** Tables and columns it names, qualified (`schema.table`, `schema.table.column`). Default: none. */
  readonly references?: readonly string[];
  /** Required for (and only for) `reading` entries. */
  readonly reading?: ConfirmedReading;
}

/** An entry's content as stored: trimmed, checked, references deduplicated. */
export interface NormalizedKnowledgeContent {
  readonly kind: KnowledgeKind;
  readonly name: string;
  readonly nameKey: string;
  readonly text: string;
  readonly sql: string | null;
  readonly references: string[];
  readonly reading: ConfirmedReading | null;
}

const controlCharacters = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

function checkedText(field: string, value: unknown, limit: number, required: boolean): string | null {
  if (value === undefined || value === null) {
    if (required) throw new KnowledgeEntryError(`a knowledge entry needs a ${field}`, { field });
    return null;
  }
  if (typeof value !== "string") throw new KnowledgeEntryError(`the ${field} must be text`, { field });
  const trimmed = value.trim();
  if (trimmed === "") {
    if (required) throw new KnowledgeEntryError(`a knowledge entry needs a ${field}`, { field });
    return null;
  }
  if (trimmed.length > limit) {
    throw new KnowledgeEntryError(`the ${field} is longer than ${limit} characters`, { field });
  }
  if (controlCharacters.test(trimmed)) {
    throw new KnowledgeEntryError(`the ${field} holds control characters`, { field });
  }
  return trimmed;
}

function checkedName(field: string, value: unknown, limit: number): string {
  const name = checkedText(field, value, limit, true)!;
  if (/[\r\n\t]/.test(name)) throw new KnowledgeEntryError(`the ${field} must be one line`, { field });
  return name;
}

/** `schema.table` or `schema.table.column`: two or three non-empty parts. */
function checkedReference(value: unknown, field = "references"): string {
  const reference = checkedName(field, value, knowledgeLimits.reference);
  const parts = reference.split(".");
  if (parts.length < 2 || parts.length > 3 || parts.some((part) => part.trim() === "" || part !== part.trim())) {
    throw new KnowledgeEntryError(
      `"${reference}" is not a qualified table or column (schema.table or schema.table.column)`,
      { field },
    );
  }
  return reference;
}

function checkedChoice(value: ReadingChoice | undefined): ReadingChoice {
  if (!value || typeof value !== "object") {
    throw new KnowledgeEntryError("a reading needs its chosen and alternative choices", { field: "reading" });
  }
  const elements = Array.isArray(value.elements) ? value.elements : [];
  if (elements.length > knowledgeLimits.references) {
    throw new KnowledgeEntryError(`a reading's choice names more than ${knowledgeLimits.references} elements`, {
      field: "reading",
    });
  }
  return {
    label: checkedName("reading", value.label, knowledgeLimits.name),
    elements: [...new Set(elements.map((element) => checkedReference(element, "reading")))],
  };
}

function checkedReading(reading: ConfirmedReading | undefined, kind: KnowledgeKind): ConfirmedReading | null {
  if (kind !== "reading") {
    if (reading !== undefined) {
      throw new KnowledgeEntryError("only a reading entry carries a reading", { field: "reading" });
    }
    return null;
  }
  if (!reading || typeof reading !== "object") {
    throw new KnowledgeEntryError("a reading entry needs the reading it confirms", { field: "reading" });
  }
  const alternatives = Array.isArray(reading.alternatives) ? reading.alternatives : [];
  if (alternatives.length > 16) {
    throw new KnowledgeEntryError("a reading has more than 16 alternatives", { field: "reading" });
  }
  return {
    phrase: checkedName("reading", reading.phrase, knowledgeLimits.name),
    chosen: checkedChoice(reading.chosen),
    alternatives: alternatives.map(checkedChoice),
  };
}

/**
 * Checks and normalises an entry's content: a known kind; a one-line name and a text (both trimmed, without control
 * characters, within `knowledgeLimits`); SQL PostgreSQL's parser reads (an entry's SQL decides which roles it reaches,
 * so SQL it cannot read would hide the entry from everyone: `readableKnowledge`); qualified references (deduplicated,
 * at most 64); a reading only on, and always on, `reading` entries. Throws `KnowledgeEntryError` naming the field.
 * Needs `loadSqlParser()` to have settled when the content has SQL.
 */
export function normalizeKnowledgeContent(content: KnowledgeEntryContent): NormalizedKnowledgeContent {
  if (!knowledgeKinds.includes(content.kind)) {
    throw new KnowledgeEntryError(
      `unknown knowledge kind "${String(content.kind)}" (use ${knowledgeKinds.join(", ")})`,
      {
        field: "kind",
      },
    );
  }
  const name = checkedName("name", content.name, knowledgeLimits.name);
  const references = content.references ?? [];
  if (!Array.isArray(references) || references.length > knowledgeLimits.references) {
    throw new KnowledgeEntryError(`an entry names at most ${knowledgeLimits.references} tables and columns`, {
      field: "references",
    });
  }
  return {
    kind: content.kind,
    name,
    nameKey: knowledgeNameKey(name),
    text: checkedText("text", content.text, knowledgeLimits.text, true)!,
    sql: checkedSql(content.sql),
    references: [...new Set(references.map((reference) => checkedReference(reference)))],
    reading: checkedReading(content.reading, content.kind),
  };
}

function checkedSql(value: unknown): string | null {
  const sql = checkedText("sql", value, knowledgeLimits.sql, false);
  if (sql !== null && knowledgeSqlNames(sql) === undefined) {
    throw new KnowledgeEntryError(
      "the sql does not parse as PostgreSQL: give an expression (sum(amount_cents) / 100.0), a condition (is_test = false) or a query",
      { field: "sql" },
    );
  }
  return sql;
}

/** The key one author's entries of a kind are unique by: the name lower-cased, inner whitespace collapsed. */
export function knowledgeNameKey(name: string): string {
  return name.trim().replace(/\s+/g, " ").toLowerCase();
}

/** Refuses an origin nlq does not know. */
export function checkedOrigin(origin: KnowledgeOrigin): KnowledgeOrigin {
  if (!knowledgeOrigins.includes(origin)) {
    throw new KnowledgeEntryError(`unknown knowledge origin "${String(origin)}"`, { field: "origin" });
  }
  return origin;
}
