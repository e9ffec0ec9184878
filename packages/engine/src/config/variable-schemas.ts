import { z } from "zod";
import { quotedPrefix } from "../text/quoted-prefix";

/**
 * zod schemas of single environment variables, each parsing the variable's text (already trimmed, never empty:
 * `parseEnvironment` drops empty values) and failing with `must be <expectation>, got "<value>"`, so the message
 * `parseEnvironment` builds reads `NLQ_WEB_POOL_SIZE must be a whole number ≥ 1, got "abc"`.
 */

/** Most characters of a bad value quoted back in a message. */
const quotedPrefixLength = 40;

/** The value as a message shows it: quoted, cut to a short prefix. */
export function quotedValue(text: string): string {
  return quotedPrefix(text, quotedPrefixLength);
}

/** A URL with its password replaced by `***` (or the text as is when it is not a URL), quoted. */
function quotedUrl(text: string): string {
  try {
    const url = new URL(text);
    if (url.password) url.password = "***";
    return quotedValue(url.toString());
  } catch {
    return quotedValue(text.replace(/:[^:@/]*@/, ":***@"));
  }
}

/** A variable read by `parse`, which returns `undefined` for text it refuses. */
export function parsedVariable<T>(
  expectation: string,
  parse: (text: string) => T | undefined,
  quote: (text: string) => string = quotedValue,
) {
  return z.string().transform((text, context): T => {
    const value = parse(text.trim());
    if (value === undefined) {
      context.addIssue({ code: "custom", message: `must be ${expectation}, got ${quote(text.trim())}` });
      return z.NEVER;
    }
    return value;
  });
}

/** Free text (a path, a host, a key); optional. */
export const textVariable = z
  .string()
  .transform((text) => text.trim())
  .optional();

/** A whole number ≥ `minimum`; undefined when unset (the caller has a default of its own, e.g. the preset's). */
export function optionalWholeNumberVariable(minimum: number) {
  return parsedVariable(`a whole number ≥ ${minimum}`, (text) =>
    /^\d+$/.test(text) && Number.isSafeInteger(Number(text)) && Number(text) >= minimum ? Number(text) : undefined,
  ).optional();
}

/** A whole number ≥ `minimum`; `defaultValue` when unset. */
export function wholeNumberVariable(defaultValue: number, minimum: number) {
  return optionalWholeNumberVariable(minimum).transform((value) => value ?? defaultValue);
}

/** A TCP port, 0 (any free port) to 65535; undefined when unset. */
export const optionalPortVariable = parsedVariable("a TCP port number (0-65535)", (text) =>
  /^\d+$/.test(text) && Number(text) <= 65_535 ? Number(text) : undefined,
).optional();

/** A TCP port, 0 (any free port) to 65535; `defaultValue` when unset. */
export function portVariable(defaultValue: number) {
  return optionalPortVariable.transform((value) => value ?? defaultValue);
}

/** A decimal number in [minimum, maximum]; `defaultValue` when unset. */
export function decimalVariable(defaultValue: number, minimum: number, maximum: number) {
  return parsedVariable(`a number from ${minimum} to ${maximum}`, (text) => {
    const value = Number(text);
    return /^[+-]?(\d+\.?\d*|\.\d+)$/.test(text) && value >= minimum && value <= maximum ? value : undefined;
  })
    .optional()
    .transform((value) => value ?? defaultValue);
}

const switchWords: Readonly<Record<string, boolean>> = {
  on: true,
  off: false,
  true: true,
  false: false,
  yes: true,
  no: false,
  "1": true,
  "0": false,
};

/** `on`/`off` (also `true`/`false`, `yes`/`no`, `1`/`0`, any case); `defaultValue` when unset. */
export function switchVariable(defaultValue: boolean) {
  return parsedVariable("on or off", (text) => switchWords[text.toLowerCase()])
    .optional()
    .transform((value) => value ?? defaultValue);
}

/** A URL whose scheme is one of `protocols` (e.g. `["http:", "https:"]`); optional. Passwords are never echoed. */
export function urlVariable(description: string, protocols: readonly string[]) {
  return parsedVariable(
    description,
    (text) => {
      try {
        return protocols.includes(new URL(text).protocol) ? text : undefined;
      } catch {
        return undefined;
      }
    },
    quotedUrl,
  ).optional();
}
