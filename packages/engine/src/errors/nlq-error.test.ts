import { describe, expect, it } from "vitest";
import { InterpretationNotFoundError } from "../interpretations/interpretation-errors";
import { LearnedModelError } from "../retrieval/learned/learned-retrieval-model";
import { ValueIndexError } from "../retrieval/values/value-index-error";
import {
  VectorCollectionNotFoundError,
  VectorDimensionError,
  VectorStoreArgumentError,
  VectorStoreError,
} from "../vector-store/vector-store-errors";
import { CancelledError } from "./cancelled-error";
import { ConfigurationError } from "./configuration-error";
import { ClientEncodingError, DatabaseError, SessionResidueError, SqlValidationError } from "./database-errors";
import { ModelCallError, ModelConfigurationError, ModelOutputError } from "./model-errors";
import { NlqError } from "./nlq-error";
import { QuestionSyntaxError, QuestionTooLongError, UnanswerableQuestionError } from "./question-errors";

/**
 * What a second copy of the package would build: its own classes (so `instanceof` fails), with the same markers,
 * because `Symbol.for` reads one registry per process.
 */
function duplicatedPackageError(names: readonly string[]): Error {
  const error = new Error("from another copy of @nlq/engine");
  for (const name of names) Object.defineProperty(error, Symbol.for(`nlq.error.${name}`), { value: true });
  return error;
}

describe("isInstance", () => {
  it("recognises an error of the class and of its subclasses, whichever copy of the package made it", () => {
    const copy = duplicatedPackageError(["NlqError", "DatabaseError", "SessionResidueError"]);
    expect(copy instanceof NlqError).toBe(false);
    expect(NlqError.isInstance(copy)).toBe(true);
    expect(DatabaseError.isInstance(copy)).toBe(true);
    expect(SessionResidueError.isInstance(copy)).toBe(true);
    expect(SqlValidationError.isInstance(copy)).toBe(false);
  });

  it("holds for this copy's errors: the base class and the parent see a subclass, a sibling does not", () => {
    const residue = new SessionResidueError(["advisory lock 7"], true);
    expect(NlqError.isInstance(residue)).toBe(true);
    expect(DatabaseError.isInstance(residue)).toBe(true);
    expect(SessionResidueError.isInstance(residue)).toBe(true);
    expect(SqlValidationError.isInstance(residue)).toBe(false);
    expect(SessionResidueError.isInstance(new DatabaseError("x", { sql: "", code: "42P01" }))).toBe(false);
    const missing = new VectorCollectionNotFoundError("columns");
    expect([NlqError, VectorStoreError, VectorCollectionNotFoundError].map((type) => type.isInstance(missing))).toEqual(
      [true, true, true],
    );
    expect(InterpretationNotFoundError.isInstance(new InterpretationNotFoundError(3, 2))).toBe(true);
    expect(ConfigurationError.isInstance(new QuestionTooLongError(5, 4))).toBe(false);
  });

  it("refuses unrelated errors and values, and a marker that is not true", () => {
    for (const value of [new Error("plain"), new TypeError("t"), "NlqError", null, undefined, 42, { code: "57014" }]) {
      expect(NlqError.isInstance(value)).toBe(false);
      expect(CancelledError.isInstance(value)).toBe(false);
    }
    const forged = new Error("forged");
    Object.defineProperty(forged, Symbol.for("nlq.error.ModelCallError"), { value: "yes" });
    expect(ModelCallError.isInstance(forged)).toBe(false);
    expect(NlqError.isInstance(new ModelCallError("m", { step: "generate-candidate" }))).toBe(true);
  });
});

describe("every error class of the engine", () => {
  /** One instance of each class, and the class. */
  const errors: ReadonlyArray<readonly [NlqError, { isInstance(error: unknown): boolean; name: string }]> = [
    [new NlqError("n"), NlqError],
    [new CancelledError(), CancelledError],
    [new ConfigurationError("c"), ConfigurationError],
    [new LearnedModelError("l"), LearnedModelError],
    [new SqlValidationError("s", { sql: "x" }), SqlValidationError],
    [new DatabaseError("d", { sql: "x", code: "42P01" }), DatabaseError],
    [new ClientEncodingError("LATIN1"), ClientEncodingError],
    [new SessionResidueError(["prepared statement p"], true), SessionResidueError],
    [new ModelConfigurationError("m"), ModelConfigurationError],
    [new ModelCallError("m", { step: "generate-candidate" }), ModelCallError],
    [new ModelOutputError("m", { step: "generate-candidate", output: "o" }), ModelOutputError],
    [new UnanswerableQuestionError("u", { question: "q" }), UnanswerableQuestionError],
    [new QuestionTooLongError(5, 4), QuestionTooLongError],
    [new QuestionSyntaxError("q"), QuestionSyntaxError],
    [new InterpretationNotFoundError(3, 2), InterpretationNotFoundError],
    [new ValueIndexError("v"), ValueIndexError],
    [new VectorStoreError("v"), VectorStoreError],
    [new VectorCollectionNotFoundError("c"), VectorCollectionNotFoundError],
    [new VectorDimensionError("v", { collection: "c", expected: 2, actual: 3 }), VectorDimensionError],
    [new VectorStoreArgumentError("v"), VectorStoreArgumentError],
  ];

  it("has its own isInstance, true exactly where instanceof is (its instances and its subclasses')", () => {
    for (const [, type] of errors) {
      const recognised = errors.filter(([error]) => type.isInstance(error)).map(([error]) => error.name);
      const instances = errors.filter(([error]) => error instanceof (type as unknown as typeof NlqError));
      expect(recognised, type.name).toEqual(instances.map(([error]) => error.name));
    }
  });
});
