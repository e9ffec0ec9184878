import { loadSettings, type Settings } from "@nlq/engine";

/** The byte cap the suite configures (`NLQ_RESULT_BYTE_LIMIT`); a huge answer must stay within twice this. */
export const resultByteLimit = 1_000_000;

/**
 * Settings of every adversarial question: a scripted model (proxy path; the core path injects a mock model), two
 * fixer revisions (so hostile revisions run too), a short statement timeout, the row cap and the byte cap.
 */
export function adversarialSettings(fixturePath: string): Settings {
  return loadSettings({
    NLQ_MODEL: `scripted:${fixturePath}`,
    NLQ_MAX_FIX_ATTEMPTS: "2",
    NLQ_STATEMENT_TIMEOUT_MS: "10000",
    NLQ_ROW_LIMIT: "100",
    NLQ_RESULT_BYTE_LIMIT: String(resultByteLimit),
  });
}
