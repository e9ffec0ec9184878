import type { ResultField } from "@nlq/engine";
import { ResultByteBudget } from "@nlq/engine";
import type pg from "pg";

/** The parts of node-postgres' protocol connection a submittable query uses (pg/lib/connection.js). */
interface PgProtocolConnection {
  readonly stream: { cork?: () => void; uncork?: () => void };
  parse(query: { text: string; name?: string }): void;
  bind(config: { portal?: string; statement?: string }): void;
  describe(message: { type: "P" | "S"; name: string }): void;
  execute(config: { portal?: string; rows?: number }): void;
  sync(): void;
  sendCopyFail(message: string): void;
}

/** A whole result as the extended query collected it. */
export interface ExtendedQueryOutcome {
  readonly fields: ResultField[];
  readonly rows: Array<Array<string | null>>;
  readonly command: string;
  readonly cutByBytes: boolean;
  /** The server's ErrorResponse, if any. */
  readonly error: (Error & { code?: string }) | undefined;
}

export interface ExtendedQueryOptions {
  readonly text: string;
  readonly resultByteLimit: number | undefined;
  /** Called once when the byte limit is passed (the executor cancels the statement). */
  readonly onByteLimit: () => void;
}

/**
 * A node-postgres "submittable" that sends one statement as Parse (unnamed) / Bind / Describe portal / Execute / Sync
 * — the extended protocol, where a text holding several commands is refused by the server — and keeps values as raw
 * text, counting each DataRow's bytes against the byte limit as it arrives. `outcome` settles at ReadyForQuery, or at
 * the first error.
 */
export class PgExtendedQuery {
  readonly text: string;
  readonly outcome: Promise<ExtendedQueryOutcome>;
  #settle!: (outcome: ExtendedQueryOutcome) => void;
  #fields: ResultField[] = [];
  #rows: Array<Array<string | null>> = [];
  #command = "";
  #error: (Error & { code?: string }) | undefined;
  #settled = false;
  readonly #budget: ResultByteBudget;

  constructor(options: ExtendedQueryOptions) {
    this.text = options.text;
    this.#budget = new ResultByteBudget(options.resultByteLimit, options.onByteLimit);
    this.outcome = new Promise((resolve) => {
      this.#settle = resolve;
    });
  }

  submit(connection: PgProtocolConnection): null {
    connection.stream.cork?.();
    try {
      connection.parse({ text: this.text, name: "" });
      connection.bind({ portal: "", statement: "" });
      connection.describe({ type: "P", name: "" });
      connection.execute({ portal: "", rows: 0 });
      connection.sync();
    } finally {
      connection.stream.uncork?.();
    }
    return null;
  }

  handleRowDescription(message: { fields: pg.FieldDef[] }): void {
    this.#fields = message.fields.map((field) => ({
      name: field.name,
      dataTypeId: field.dataTypeID,
      dataTypeSize: field.dataTypeSize,
      dataTypeModifier: field.dataTypeModifier,
      tableId: field.tableID,
      columnId: field.columnID,
    }));
  }

  handleDataRow(message: { length: number; fields: Array<string | null> }): void {
    if (this.#budget.accept(message.length)) this.#rows.push(message.fields);
  }

  handleCommandComplete(message: { text: string }): void {
    this.#command = message.text;
  }

  handleEmptyQuery(): void {}

  handlePortalSuspended(): void {}

  handleCopyInResponse(connection: PgProtocolConnection): void {
    connection.sendCopyFail("nlq does not run COPY FROM STDIN");
  }

  handleCopyData(): void {}

  /**
   * An ErrorResponse or a connection failure. node-postgres drops the query at an ErrorResponse (it never sees the
   * ReadyForQuery that follows, and queues later queries until it arrives), so the outcome settles here.
   */
  handleError(error: Error & { code?: string }): void {
    this.#error ??= error;
    this.#finish();
  }

  handleReadyForQuery(): void {
    this.#finish();
  }

  #finish(): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#settle({
      fields: this.#fields,
      rows: this.#rows,
      command: this.#command,
      cutByBytes: this.#budget.exceeded,
      error: this.#error,
    });
  }
}
