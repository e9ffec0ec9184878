import type { VerifiedExampleSource } from "@nlq/adapters";

/**
 * How an example saved from the answer view is recorded: SQL the user corrected is `corrected`, shared with every role
 * when an administrator saved it; a reading the user picked among an ambiguous question's interpretations is
 * `accepted` and stays the role's own, whoever picks (docs/decisions/2026-11-27-interpretations.md). `administrator` is
 * asked only when it matters.
 */
export async function savedExampleOrigin(
  picked: boolean,
  administrator: () => Promise<boolean>,
): Promise<{ readonly source: VerifiedExampleSource; readonly sharedWithAllRoles: boolean }> {
  if (picked) return { source: "accepted", sharedWithAllRoles: false };
  return { source: "corrected", sharedWithAllRoles: await administrator() };
}
