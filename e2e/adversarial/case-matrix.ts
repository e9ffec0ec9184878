import { type RoleKind, roleKinds } from "./adversarial-world";
import type { QuestionPath } from "./ask-question";
import type { SessionVariant } from "./case-variant";
import { allClassicPayloads, lexicalTrickPayloads } from "./classic-payloads";
import { hugeResultPayloads, promptInjectionPayloads } from "./injection-payloads";
import { lexicalPayloads } from "./lexical-payloads";
import type { Payload } from "./payload";
import { plantedCodePayloads } from "./planted-code-payloads";
import { resolvedCallPayloads } from "./resolved-call-payloads";
import type { AdversarialCase } from "./run-case";
import { sideEffectPayloads } from "./side-effect-payloads";

interface Selection {
  readonly payloads: readonly Payload[];
  readonly paths: readonly QuestionPath[];
  readonly roles: readonly RoleKind[];
  readonly variants: readonly SessionVariant[];
}

function expand(selection: Selection): AdversarialCase[] {
  return selection.paths.flatMap((path) =>
    selection.roles.flatMap((role) =>
      selection.variants.flatMap((variant) => selection.payloads.map((payload) => ({ path, role, variant, payload }))),
    ),
  );
}

const everyVariant: readonly SessionVariant[] = [
  "default",
  "sco-off-role",
  "sco-off-session",
  "open-transaction",
  "open-transaction-sco-off",
  "aborted-transaction",
];

/**
 * The cases: every payload under every role through the proxy in the default session; the lexical injection under
 * every role and variant through the proxy and with standard_conforming_strings off through core; the comment and
 * string tricks with the setting off; the side-effect functions also inside an open transaction and through core;
 * the classic payloads also inside an open transaction and through core; ten payloads in an aborted transaction; the
 * resolved-call payloads of issue 17 (column notation, ts_stat, dblink, domain, cast, CASE operator, pg_temp, a
 * locking view) under every role through the proxy and core, and inside an open transaction; the planted-code
 * payloads of issue 25 (a view, an implicit cast and an RLS policy another role planted, a shadowing `=`) under every
 * role through the proxy and core, inside an open transaction, and through MCP (`mcpCases`).
 */
export const adversarialCases: readonly AdversarialCase[] = [
  ...expand({ payloads: lexicalPayloads, paths: ["proxy"], roles: roleKinds, variants: everyVariant }),
  ...expand({
    payloads: lexicalPayloads,
    paths: ["core"],
    roles: roleKinds,
    variants: ["sco-off-role", "sco-off-session", "open-transaction-sco-off"],
  }),
  ...expand({
    payloads: [...allClassicPayloads, ...sideEffectPayloads, ...promptInjectionPayloads, ...hugeResultPayloads],
    paths: ["proxy"],
    roles: roleKinds,
    variants: ["default"],
  }),
  ...expand({
    payloads: lexicalTrickPayloads,
    paths: ["proxy"],
    roles: roleKinds,
    variants: ["sco-off-role", "sco-off-session"],
  }),
  ...expand({ payloads: lexicalTrickPayloads, paths: ["core"], roles: ["ordinary"], variants: ["sco-off-session"] }),
  ...expand({ payloads: sideEffectPayloads, paths: ["proxy"], roles: ["superuser"], variants: ["open-transaction"] }),
  ...expand({ payloads: resolvedCallPayloads, paths: ["proxy", "core"], roles: roleKinds, variants: ["default"] }),
  ...expand({ payloads: resolvedCallPayloads, paths: ["proxy"], roles: ["ordinary"], variants: ["open-transaction"] }),
  ...expand({ payloads: plantedCodePayloads, paths: ["proxy", "core"], roles: roleKinds, variants: ["default"] }),
  ...expand({ payloads: plantedCodePayloads, paths: ["proxy"], roles: ["superuser"], variants: ["open-transaction"] }),
  ...expand({ payloads: sideEffectPayloads, paths: ["core"], roles: ["superuser"], variants: ["default"] }),
  ...expand({ payloads: allClassicPayloads, paths: ["proxy"], roles: ["superuser"], variants: ["open-transaction"] }),
  ...expand({ payloads: allClassicPayloads, paths: ["core"], roles: ["ordinary"], variants: ["default"] }),
  ...expand({ payloads: promptInjectionPayloads, paths: ["core"], roles: roleKinds, variants: ["default"] }),
  ...expand({ payloads: hugeResultPayloads, paths: ["core"], roles: ["ordinary"], variants: ["default"] }),
  ...expand({
    payloads: [...allClassicPayloads.slice(0, 5), ...sideEffectPayloads.slice(0, 5)],
    paths: ["proxy", "core"],
    roles: ["rls"],
    variants: ["aborted-transaction"],
  }),
];

const controlNames = new Set([
  "update",
  "create temporary table",
  "create role",
  "alter role set",
  "set search_path",
  "listen",
  "prepare",
  "declare cursor with hold",
  "copy to file",
  "commit",
  "dblink_connect_u leaves a connection",
  "pg_terminate_backend of another session",
  "pg_read_file",
  "lo_export writes a file",
  "pg_create_physical_replication_slot",
  "pg_backup_start",
  "pg_stat_reset",
  "session advisory lock",
  "advisory unlock all",
  "nextval on the client's temporary sequence",
  "user-defined volatile function writing through dblink",
  "column notation pg_advisory_lock",
  "ts_stat executor takes an advisory lock",
  "column notation dblink_connect_u leaves a connection",
  "domain CHECK function takes a lock",
  "CREATE CAST function takes a lock",
  "operator implied by CASE x WHEN takes a lock",
  "pg_temp function takes a lock",
  "planted view runs COPY TO PROGRAM and dblink_exec",
  "planted implicit cast through lower()",
  "planted row-level security policy",
]);

/**
 * Controls (not counted as adversarial cases): payloads run straight on a superuser session, with nothing in
 * between, each of which the checks must catch; "commit" runs inside the client's open transaction.
 */
export const unguardedControls: readonly AdversarialCase[] = [
  ...allClassicPayloads,
  ...sideEffectPayloads,
  ...resolvedCallPayloads,
  ...plantedCodePayloads,
]
  .filter((payload) => controlNames.has(payload.name))
  .map((payload) => ({
    path: "unguarded",
    // Superusers bypass row-level security: a planted policy runs for an ordinary role.
    role: payload.name === "planted row-level security policy" ? "ordinary" : "superuser",
    variant: payload.name === "commit" ? "open-transaction" : "default",
    payload,
  }));

/** One line: how many cases ran per path, role and variant. */
export function describeCounts(cases: readonly AdversarialCase[]): string {
  const counts = new Map<string, number>();
  for (const testCase of cases) {
    const key = `${testCase.path}/${testCase.role}/${testCase.variant}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const parts = [...counts.entries()].sort(([left], [right]) => left.localeCompare(right));
  return `adversarial: ${cases.length} cases run (${parts.map(([key, count]) => `${key} ${count}`).join(", ")})`;
}
