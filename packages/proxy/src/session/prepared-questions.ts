import type { Answer } from "@nlq/engine";
import { readDescribeOrClose } from "../protocol/extended-messages";
import { MessageType, readParse } from "../protocol/frontend-messages";

/** A prepared statement (Parse) whose text is a question. */
export interface PreparedQuestion {
  readonly question: string;
  /**
   * The answer generated when the statement's Parse batch was answered: its validated SQL and columns are what
   * every later Describe, Bind and Execute of the statement sees. Undefined until that batch is answered.
   */
  readonly answer: Answer | undefined;
}

/**
 * The prepared statements of one connection that hold a question, by name (`""` is the unnamed statement). They
 * exist only in the proxy: the upstream never sees their Parse. A statement is generated once, when its Parse batch
 * is answered; a later Bind/Describe/Execute re-runs the stored SQL instead of asking the model again. A new Parse of
 * the name, a Close of the statement, or (for the unnamed statement) a simple Query forgets it, as PostgreSQL would.
 */
export class PreparedQuestions {
  readonly #statements = new Map<string, PreparedQuestion>();

  get size(): number {
    return this.#statements.size;
  }

  get(name: string): PreparedQuestion | undefined {
    return this.#statements.get(name);
  }

  has(name: string): boolean {
    return this.#statements.has(name);
  }

  /** A Parse of `name` carrying `question`: a new statement, not generated yet. */
  parsed(name: string, question: string): void {
    this.#statements.set(name, { question, answer: undefined });
  }

  /** The Parse batch of `name` was answered with `answer`: later executions re-run its SQL. */
  generated(name: string, answer: Answer): void {
    const statement = this.#statements.get(name);
    if (statement !== undefined) this.#statements.set(name, { question: statement.question, answer });
  }

  /** The statement is gone (Close, a new Parse of the name, a failed Parse). */
  forget(name: string): void {
    this.#statements.delete(name);
  }

  /**
   * A question batch was answered (`answer`) or failed (undefined): its Parse defines the statement with the answer
   * (a failed Parse leaves none, as in PostgreSQL), its Close forgets it.
   */
  settle(batch: readonly Buffer[], answer: Answer | undefined): void {
    for (const message of batch) {
      if (message[0] === MessageType.parse) {
        const name = readParse(message).statementName;
        if (answer === undefined) this.forget(name);
        else this.generated(name, answer);
      } else if (message[0] === MessageType.close && answer !== undefined) {
        const { target, name } = readDescribeOrClose(message);
        if (target === "S") this.forget(name);
      }
    }
  }
}
