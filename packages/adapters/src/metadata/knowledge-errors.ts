import { NlqError } from "@nlq/engine";

const knowledgeEntryErrorMarker = Symbol.for("nlq.error.KnowledgeEntryError");

/**
 * A knowledge entry that cannot be stored as given: an unknown kind, an empty or overlong name or text, a malformed
 * reference, a `reading` entry without its reading. SQLSTATE 22023 (invalid parameter value).
 */
export class KnowledgeEntryError extends NlqError {
  readonly [knowledgeEntryErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is KnowledgeEntryError {
    return NlqError.hasMarker(error, knowledgeEntryErrorMarker);
  }

  /** The field that was refused (`kind`, `name`, `text`, `sql`, `references`, `reading`). */
  readonly field: string;
  constructor(message: string, options: { field: string; cause?: unknown }) {
    super(message, { code: "22023", cause: options.cause });
    this.field = options.field;
  }
}

const knowledgeConflictErrorMarker = Symbol.for("nlq.error.KnowledgeConflictError");

/**
 * The change would give its author two entries of one kind and name on one data source (editing another's entry into
 * a name the editor already uses). SQLSTATE 23505 (unique violation).
 */
export class KnowledgeConflictError extends NlqError {
  readonly [knowledgeConflictErrorMarker] = true;

  static override isInstance(error: unknown): error is KnowledgeConflictError {
    return NlqError.hasMarker(error, knowledgeConflictErrorMarker);
  }

  readonly kind: string;
  /** The entry's name that is already taken. */
  readonly entryName: string;
  constructor(kind: string, entryName: string, options: { cause?: unknown } = {}) {
    super(`you already have a ${kind} named "${entryName}" on this data source`, {
      code: "23505",
      cause: options.cause,
    });
    this.kind = kind;
    this.entryName = entryName;
  }
}
