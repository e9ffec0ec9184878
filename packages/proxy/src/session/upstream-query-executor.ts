import {
  CancelledError,
  DatabaseError,
  NlqError,
  type QueryExecutor,
  type QueryOptions,
  type QueryResult,
  ResultByteBudget,
  type ResultField,
} from "@nlq/engine";
import { serialize } from "pg-protocol";
import type {
  BackendMessage,
  CommandCompleteMessage,
  DataRowMessage,
  DatabaseError as ProtocolDatabaseError,
  RowDescriptionMessage,
} from "pg-protocol/dist/messages";
import { Parser } from "pg-protocol/dist/parser";

/** What the executor needs from the proxy connection it runs on. */
export interface UpstreamChannel {
  /** Writes bytes to the upstream server. */
  write(bytes: Buffer): void;
  /** Asks the upstream server to cancel the running statement (a CancelRequest with the session's key). */
  requestCancel(): void;
}

const upstreamConnectionErrorMarker = Symbol.for("nlq.error.UpstreamConnectionError");

/** The upstream connection is gone. SQLSTATE 08006 (connection_failure). */
export class UpstreamConnectionError extends NlqError {
  readonly [upstreamConnectionErrorMarker] = true;

  /** True for an instance of this class (or a subclass) made by any copy of nlq: checks the `Symbol.for` marker. */
  static override isInstance(error: unknown): error is UpstreamConnectionError {
    return NlqError.hasMarker(error, upstreamConnectionErrorMarker);
  }

  constructor(message = "the connection to the upstream server was lost") {
    super(message, { code: "08006" });
  }
}

interface PendingQuery {
  readonly sql: string;
  readonly resolve: (result: QueryResult) => void;
  readonly reject: (error: unknown) => void;
  readonly abortSignal: AbortSignal | undefined;
  readonly onAbort: () => void;
  fields: ResultField[];
  rows: Array<Array<string | null>>;
  result: QueryResult | undefined;
  error: DatabaseError | undefined;
  readonly budget: ResultByteBudget;
  /** DataRows already accounted at their header (`refusesRow`) and not received yet. */
  admitted: number;
}

/**
 * One statement as the extended protocol's unnamed statement and portal, in one write (so the connection expects one
 * ReadyForQuery): Parse, Bind, Describe portal, Execute (all rows), Sync. One Parse cannot hold two commands.
 */
function extendedStatement(sql: string): Buffer {
  return Buffer.concat([
    serialize.parse({ text: sql }),
    serialize.bind({}),
    serialize.describe({ type: "P", name: "" }),
    serialize.execute({ portal: "", rows: 0 }),
    serialize.sync(),
  ]);
}

/**
 * A `QueryExecutor` on the client's own upstream session: sends each statement with the extended protocol
 * (`extendedStatement`: a text PostgreSQL would lex as several commands is refused, never run) and parses the
 * responses with pg-protocol's `Parser` until ReadyForQuery. Upstream NoticeResponses are swallowed. It uses the
 * unnamed statement and portal, which a simple Query would have replaced as well. Past `resultByteLimit` it drops
 * further rows, asks the channel to cancel the statement, and resolves with the rows that fit (`cutByBytes`).
 * The connection feeds it every whole backend message while a question is being answered
 * (`receive`), except the ones it forwards to the client itself (NotificationResponse, ParameterStatus).
 * One statement at a time; values in text format.
 */
export class UpstreamQueryExecutor implements QueryExecutor {
  readonly name = "proxy-upstream";
  readonly #channel: UpstreamChannel;
  readonly #parser = new Parser();
  #pending: PendingQuery | undefined;
  #closed: Error | undefined;

  constructor(channel: UpstreamChannel) {
    this.#channel = channel;
  }

  /** True while a statement is waiting for its ReadyForQuery. */
  get busy(): boolean {
    return this.#pending !== undefined;
  }

  query(options: QueryOptions): Promise<QueryResult> {
    if (this.#closed !== undefined) return Promise.reject(this.#closed);
    if (options.abortSignal?.aborted) return Promise.reject(new CancelledError());
    if (this.#pending !== undefined) {
      return Promise.reject(new NlqError("the proxy session runs one statement at a time"));
    }
    return new Promise<QueryResult>((resolve, reject) => {
      const pending: PendingQuery = {
        sql: options.sql,
        resolve,
        reject,
        abortSignal: options.abortSignal,
        onAbort: () => this.#channel.requestCancel(),
        fields: [],
        rows: [],
        result: undefined,
        error: undefined,
        budget: new ResultByteBudget(options.resultByteLimit, () => this.#channel.requestCancel()),
        admitted: 0,
      };
      this.#pending = pending;
      options.abortSignal?.addEventListener("abort", pending.onAbort, { once: true });
      this.#channel.write(extendedStatement(options.sql));
    });
  }

  /**
   * Accounts a DataRow of `length` bytes (its declared length, without the type byte) at its header, before its body
   * is read: true when it does not fit the byte cap (or a row before it did not), so that the caller drops it unread;
   * the statement is cancelled then. A row that fits is kept when it arrives (`receive`).
   */
  refusesRow(length: number): boolean {
    const pending = this.#pending;
    if (pending === undefined) return false;
    if (!pending.budget.accept(length)) return true;
    pending.admitted++;
    return false;
  }

  /** Feeds one whole backend message that belongs to the running statement. */
  receive(message: Buffer): void {
    this.#parser.parse(message, (parsed) => this.#handle(parsed));
  }

  /** The upstream connection closed: fail the running statement and every later one. */
  close(error: Error = new UpstreamConnectionError()): void {
    this.#closed = error;
    const pending = this.#pending;
    this.#pending = undefined;
    if (pending === undefined) return;
    pending.abortSignal?.removeEventListener("abort", pending.onAbort);
    pending.reject(error);
  }

  #handle(message: BackendMessage): void {
    const pending = this.#pending;
    if (pending === undefined) return;
    switch (message.name) {
      case "rowDescription":
        pending.fields = (message as RowDescriptionMessage).fields.map((field) => ({
          name: field.name,
          tableId: field.tableID,
          columnId: field.columnID,
          dataTypeId: field.dataTypeID,
          dataTypeSize: field.dataTypeSize,
          dataTypeModifier: field.dataTypeModifier,
        }));
        pending.rows = [];
        break;
      case "dataRow": {
        const row = message as DataRowMessage;
        const admitted = pending.admitted > 0;
        if (admitted) pending.admitted--;
        if (admitted || pending.budget.accept(row.length)) pending.rows.push(row.fields as Array<string | null>);
        break;
      }
      case "commandComplete":
        pending.result = {
          fields: pending.fields,
          rows: pending.rows,
          command: (message as CommandCompleteMessage).text,
        };
        pending.fields = [];
        pending.rows = [];
        break;
      case "error": {
        const error = message as ProtocolDatabaseError;
        pending.error ??= new DatabaseError(error.message, {
          sql: pending.sql,
          code: error.code ?? "XX000",
          ...(error.detail === undefined ? {} : { detail: error.detail }),
          ...(error.hint === undefined ? {} : { hint: error.hint }),
        });
        break;
      }
      case "copyInResponse":
        this.#channel.write(serialize.copyFail("nlq does not run COPY FROM STDIN"));
        break;
      case "readyForQuery":
        this.#pending = undefined;
        this.#settle(pending);
        break;
      default:
        // ParseComplete, BindComplete, NoData, PortalSuspended, notices, EmptyQueryResponse, COPY OUT data
        break;
    }
  }

  #settle(pending: PendingQuery): void {
    pending.abortSignal?.removeEventListener("abort", pending.onAbort);
    if (pending.abortSignal?.aborted) {
      pending.reject(new CancelledError(undefined, { cause: pending.error }));
    } else if (pending.budget.exceeded && (pending.error === undefined || pending.error.code === "57014")) {
      const kept = pending.result ?? pending;
      pending.resolve({ fields: kept.fields, rows: kept.rows, command: "", cutByBytes: true });
    } else if (pending.error !== undefined) {
      pending.reject(pending.error);
    } else {
      pending.resolve(pending.result ?? { fields: [], rows: [], command: "" });
    }
  }
}
