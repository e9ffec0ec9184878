import {
  dataSourceKey,
  type KnowledgeEntryView,
  KnowledgeStore,
  knowledgeEntryView,
  knowledgeForRole,
  sessionAuthority,
} from "@nlq/adapters";
import {
  introspectCatalog,
  type KnowledgeKind,
  NlqError,
  readableElementNames,
  runReadOnly,
  type Settings,
} from "@nlq/engine";
import type { McpToolSettings, RoleSession } from "../role-session";

const noKnowledgeStoreErrorMarker = Symbol.for("nlq.error.McpNoKnowledgeStoreError");

/** The server keeps no metadata store, so there is no knowledge to read or propose to. SQLSTATE 55000. */
export class McpNoKnowledgeStoreError extends NlqError {
  readonly [noKnowledgeStoreErrorMarker] = true;

  static override isInstance(error: unknown): error is McpNoKnowledgeStoreError {
    return NlqError.hasMarker(error, noKnowledgeStoreErrorMarker);
  }

  constructor() {
    super("this server keeps no metadata store (NLQ_METADATA_URL), so it has no knowledge base", { code: "55000" });
  }
}

const unreadableReferenceErrorMarker = Symbol.for("nlq.error.UnreadableReferenceError");

/**
 * A proposal names a table or column the role cannot read (or that does not exist; the two are not told apart).
 * SQLSTATE 42501.
 */
export class UnreadableReferenceError extends NlqError {
  readonly [unreadableReferenceErrorMarker] = true;

  static override isInstance(error: unknown): error is UnreadableReferenceError {
    return NlqError.hasMarker(error, unreadableReferenceErrorMarker);
  }

  readonly references: readonly string[];
  constructor(references: readonly string[]) {
    super(`you may not read ${references.join(", ")} (or it does not exist): propose only what you may read`, {
      code: "42501",
    });
    this.references = references;
  }
}

export interface ReadKnowledgeInput {
  /** Only entries of this kind. */
  readonly kind?: KnowledgeKind;
  /** Only entries whose name, text or SQL holds every one of these words (case-insensitive). */
  readonly query?: string;
}

export interface ReadKnowledgeResult {
  readonly entries: readonly KnowledgeEntryView[];
}

async function whoIsAsking(role: RoleSession, tools: McpToolSettings, settings: Settings, abortSignal?: AbortSignal) {
  return role.exclusive(() =>
    sessionAuthority({
      session: role.session,
      statementTimeoutMilliseconds: settings.statementTimeoutMilliseconds,
      administratorRole: tools.administratorRole ?? "nlq_example_admin",
      abortSignal,
    }),
  );
}

/**
 * MCP's `read_knowledge`: the entries the session's role may see on its database (its own and administrators' shared
 * ones, each only when the role may read every table and column it names: `knowledgeForRole` on the role's own
 * session), optionally of one kind and holding the query's words; most recently changed first.
 */
export async function readKnowledge(
  role: RoleSession,
  tools: McpToolSettings,
  input: ReadKnowledgeInput,
  abortSignal?: AbortSignal,
): Promise<ReadKnowledgeResult> {
  const store = tools.metadataStore;
  if (!store) throw new McpNoKnowledgeStoreError();
  const { role: name } = await whoIsAsking(role, tools, tools.settings, abortSignal);
  const rows = await role.exclusive(() =>
    knowledgeForRole({
      database: store.database,
      dataSource: dataSourceKey(role.url),
      role: name,
      session: role.session,
      statementTimeoutMilliseconds: tools.settings.statementTimeoutMilliseconds,
      abortSignal,
    }),
  );
  const words = (input.query ?? "").toLowerCase().split(/\s+/).filter(Boolean);
  const entries = rows
    .filter((row) => input.kind === undefined || row.kind === input.kind)
    .filter((row) => {
      const text = `${row.name} ${row.text} ${row.sql ?? ""}`.toLowerCase();
      return words.every((word) => text.includes(word));
    })
    .map((row) => knowledgeEntryView(row, name));
  return { entries };
}

export interface ProposeKnowledgeInput {
  readonly kind: "term" | "metric" | "description" | "rule";
  readonly name: string;
  readonly text: string;
  readonly sql?: string;
  readonly references?: readonly string[];
}

export interface ProposeKnowledgeResult {
  readonly suggestion: KnowledgeEntryView;
  readonly status: string;
}

/**
 * MCP's `propose_knowledge`: stores an entry as the session role's suggestion (`KnowledgeStore.suggest`), used by no
 * prompt and shown to no other role until an administrator accepts it (`nlq knowledge accept`, the web page). It may
 * name only tables and columns the role may read (`UnreadableReferenceError` otherwise); a `description` refers to the
 * element it names unless told otherwise.
 */
export async function proposeKnowledge(
  role: RoleSession,
  tools: McpToolSettings,
  input: ProposeKnowledgeInput,
  abortSignal?: AbortSignal,
): Promise<ProposeKnowledgeResult> {
  const store = tools.metadataStore;
  if (!store) throw new McpNoKnowledgeStoreError();
  const { role: name } = await whoIsAsking(role, tools, tools.settings, abortSignal);
  const references = [...(input.references ?? (input.kind === "description" ? [input.name.trim()] : []))];
  if (references.length > 0) {
    const catalog = await role.exclusive(() =>
      runReadOnly(
        {
          session: role.session,
          transactionStatus: "idle",
          statementTimeoutMilliseconds: tools.settings.statementTimeoutMilliseconds,
          abortSignal,
        },
        introspectCatalog,
      ),
    );
    const readable = readableElementNames(catalog);
    const unreadable = references.filter((reference) => !readable.has(reference.trim()));
    if (unreadable.length > 0) throw new UnreadableReferenceError(unreadable);
  }
  const row = await new KnowledgeStore(store.database).suggest(
    {
      dataSource: dataSourceKey(role.url),
      kind: input.kind,
      name: input.name,
      text: input.text,
      ...(input.sql === undefined ? {} : { sql: input.sql }),
      references,
    },
    name,
  );
  return {
    suggestion: knowledgeEntryView(row, name),
    status: "stored as a suggestion: used by no answer until an administrator accepts it (nlq knowledge accept)",
  };
}
