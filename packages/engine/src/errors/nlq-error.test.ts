import { describe, expect, it } from "vitest";
import { InterpretationNotFoundError } from "../interpretations/interpretation-errors";
import { VectorCollectionNotFoundError, VectorStoreError } from "../vector-store/vector-store-errors";
import { CancelledError } from "./cancelled-error";
import { ConfigurationError } from "./configuration-error";
import { DatabaseError, SessionResidueError, SqlValidationError } from "./database-errors";
import { ModelCallError } from "./model-errors";
import { NlqError } from "./nlq-error";
import { QuestionTooLongError } from "./question-errors";

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
