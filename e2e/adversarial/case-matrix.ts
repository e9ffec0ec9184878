import { type RoleKind, roleKinds } from "./adversarial-world";
import type { QuestionPath } from "./ask-question";
import type { SessionVariant } from "./case-variant";
import { classicPayloads } from "./classic-payloads";
import { hugeResultPayloads, promptInjectionPayloads } from "./injection-payloads";
import { lexicalPayloads } from "./lexical-payloads";
import type { Payload } from "./payload";
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
 * every role, variant and path; the side-effect functions also inside an open transaction and through core; the
 * classic payloads also with standard_conforming_strings off, inside an open transaction and through core; and
 * every payload once in an aborted transaction.
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
    payloads: [...classicPayloads, ...sideEffectPayloads, ...promptInjectionPayloads, ...hugeResultPayloads],
    paths: ["proxy"],
    roles: roleKinds,
    variants: ["default"],
  }),
  ...expand({ payloads: sideEffectPayloads, paths: ["proxy"], roles: ["superuser"], variants: ["open-transaction"] }),
  ...expand({ payloads: sideEffectPayloads, paths: ["core"], roles: ["superuser"], variants: ["default"] }),
  ...expand({ payloads: classicPayloads, paths: ["proxy"], roles: ["ordinary"], variants: ["sco-off-session"] }),
  ...expand({ payloads: classicPayloads, paths: ["proxy"], roles: ["superuser"], variants: ["open-transaction"] }),
  ...expand({ payloads: classicPayloads, paths: ["core"], roles: ["ordinary"], variants: ["default"] }),
  ...expand({ payloads: promptInjectionPayloads, paths: ["core"], roles: roleKinds, variants: ["default"] }),
  ...expand({ payloads: hugeResultPayloads, paths: ["core"], roles: ["ordinary"], variants: ["default"] }),
  ...expand({
    payloads: [...classicPayloads.slice(0, 5), ...sideEffectPayloads.slice(0, 5)],
    paths: ["proxy", "core"],
    roles: ["rls"],
    variants: ["aborted-transaction"],
  }),
];

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
