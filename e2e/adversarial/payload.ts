/** What a payload may refer to: names and handles of the case it runs in. */
export interface PayloadContext {
  /** A path the server must never write (COPY … TO, lo_export, PROGRAM 'touch …'). */
  readonly filePath: string;
  /** Backend pid of a bystander session of the same role (pg_terminate_backend target). */
  readonly bystanderPid: number;
  /** A replication slot name that must never exist. */
  readonly slotName: string;
  /** A role name that must never exist. */
  readonly evilRole: string;
  /** dblink connection string to the case's database as the server's superuser. */
  readonly dblinkConnection: string;
  /** A large object that exists (lo_export source). */
  readonly largeObjectId: number;
}

/** The group a payload belongs to, for the per-group choice of roles and variants. */
export type PayloadGroup = "classic" | "lexical" | "side-effect" | "prompt-injection" | "huge-result" | "planted";

/**
 * Hostile SQL the scripted model returns for generation (`sql`) and, when the fixer is asked, as its revision
 * (`revision`, default: the same statement with a trailing comment, so it is tried a second time).
 */
export interface Payload {
  readonly name: string;
  readonly group: PayloadGroup;
  readonly sql: (context: PayloadContext) => string;
  readonly revision?: (context: PayloadContext) => string;
  /** For payloads that read something secret: a value that must never come back in the answer. */
  readonly mustNotReturn?: string;
  /**
   * The refusal the answer must be (guarded paths): an error whose message matches, e.g. one naming the planted view,
   * its owner and the function. Default: any outcome that leaves nothing behind.
   */
  readonly refusal?: (world: { readonly attacker: string }) => RegExp;
}

/** A payload whose SQL does not depend on the case. */
export function fixed(name: string, group: PayloadGroup, sql: string): Payload {
  return { name, group, sql: () => sql };
}

/** SQL text as a string literal (standard conforming, quotes doubled). */
export function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
