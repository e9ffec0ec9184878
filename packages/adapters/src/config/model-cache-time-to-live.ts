import { parsedVariable } from "@nlq/engine";

/** How long a cached model response is used when `NLQ_RESPONSE_CACHE_TTL` is unset: 7 days. */
export const defaultModelCacheTimeToLiveSeconds = 7 * 24 * 60 * 60;

const unitSeconds: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3_600, d: 86_400 };

/**
 * `NLQ_RESPONSE_CACHE_TTL`: how long a cached model response is replayed after it was written — a whole number with a
 * unit (`90s`, `30m`, `12h`, `7d`), or a bare number of seconds; `0` reuses nothing (every response is asked for
 * again), `never` keeps them until `nlq cache clear`. Parsed to seconds (`null`: never expires). Default 7 days.
 */
export const modelCacheTimeToLiveVariable = parsedVariable(
  "a duration such as 90s, 30m, 12h or 7d (or never)",
  (text): number | null | undefined => {
    if (text.toLowerCase() === "never") return null;
    const match = /^(\d+)\s*([smhd]?)$/i.exec(text);
    if (!match) return undefined;
    const seconds = Number(match[1]) * (unitSeconds[(match[2] || "s").toLowerCase()] ?? 1);
    return Number.isSafeInteger(seconds) ? seconds : undefined;
  },
)
  .optional()
  .transform((value) => (value === undefined ? defaultModelCacheTimeToLiveSeconds : value));
