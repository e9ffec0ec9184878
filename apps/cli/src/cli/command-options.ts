import { statSync } from "node:fs";
import path from "node:path";
import {
  environmentSchema,
  optionalPortVariable,
  optionalWholeNumberVariable,
  parsedVariable,
  quotedPrefix,
} from "@nlq/engine";
import { QuestionMarker } from "@nlq/proxy";
import { z } from "zod";
import { databaseUrlProblem, UsageError } from "./cli-input";

/**
 * The options of every `nlq` command as zod schemas, checked before any work: `parseCommandOptions` turns a bad value
 * into one `UsageError` (exit code 2) naming the flag, what it accepts and a short prefix of what it got, e.g.
 * `--limit must be a whole number ≥ 1, got "ten"`. A flag that means what an environment variable means (`--preset` /
 * `NLQ_PRESET`, `--model` / `NLQ_MODEL`) is checked by that variable's own field of the environment schema, so both
 * accept the same values and say so in the same words.
 */

type EnvironmentVariable = keyof typeof environmentSchema.shape;

/** A flag that sets `variable`: checked by the variable's field; its text (trimmed) is what the command passes on. */
function variableFlag(variable: EnvironmentVariable) {
  const field = environmentSchema.shape[variable];
  return z.string().transform((text, context) => {
    const parsed = field.safeParse(text.trim());
    if (!parsed.success) {
      for (const issue of parsed.error.issues) context.addIssue({ code: "custom", message: issue.message });
      return z.NEVER;
    }
    return text.trim();
  });
}

/** A PostgreSQL URL with a host, as `checkDatabaseUrl` wants it; the password is never echoed. */
export const databaseUrlFlag = z.string().transform((text, context) => {
  const problem = databaseUrlProblem(text.trim());
  if (problem === undefined) return text.trim();
  context.addIssue({ code: "custom", message: problem });
  return z.NEVER;
});

/** A whole number ≥ `minimum`: the field of the `NLQ_*` numbers, e.g. `NLQ_ROW_LIMIT`. */
function wholeNumberFlag(minimum: number) {
  return optionalWholeNumberVariable(minimum).unwrap();
}

/** A comma-separated list of names, trimmed, empty items dropped (`"fast, max,"` → `["fast", "max"]`). */
export const commaListFlag = z.string().transform((text) =>
  text
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean),
);

/** Comma-separated whole numbers ≥ `minimum` (`_` allowed as a digit separator: `1_000_000`). */
function wholeNumberListFlag(minimum: number) {
  return parsedVariable(`comma-separated whole numbers ≥ ${minimum}`, (text) => {
    const parts = text.split(",").map((part) => part.trim().replaceAll("_", ""));
    const numbers = parts.map(Number);
    const valid = parts.every(
      (part, index) => /^\d+$/.test(part) && Number.isSafeInteger(numbers[index]) && numbers[index]! >= minimum,
    );
    return valid ? numbers : undefined;
  });
}

function pathKind(text: string): "file" | "directory" | undefined {
  const stats = statSync(text, { throwIfNoEntry: false });
  if (stats === undefined) return undefined;
  return stats.isDirectory() ? "directory" : "file";
}

/** A path quoted back in a message: paths run longer than other values, so up to `quotedPrefix`'s default (80). */
const quotedPath = (text: string) => quotedPrefix(text);

/** A file that exists (read by the command). */
export const existingFileFlag = parsedVariable(
  "an existing file",
  (text) => (pathKind(text) === "file" ? text : undefined),
  quotedPath,
);

/** A directory that exists (read by the command). */
const existingDirectoryFlag = parsedVariable(
  "an existing directory",
  (text) => (pathKind(text) === "directory" ? text : undefined),
  quotedPath,
);

/** A file or directory that exists (read by the command). */
const existingPathFlag = parsedVariable(
  "an existing file or directory",
  (text) => (pathKind(text) === undefined ? undefined : text),
  quotedPath,
);

/** A file the command writes: its directory must exist, and it must not be a directory itself. */
export const outputFileFlag = parsedVariable(
  "a file in an existing directory",
  (text) =>
    pathKind(path.dirname(path.resolve(text))) === "directory" && pathKind(text) !== "directory" ? text : undefined,
  quotedPath,
);

/** Any text but an empty one. */
export const nonEmptyTextFlag = parsedVariable("a non-empty name", (text) => (text === "" ? undefined : text));

/** `host:port`, `[ipv6]:port` or a port alone (on 127.0.0.1); the port 0-65535 (0: any free port). */
export function parseListenAddress(text: string): { host: string; port: number } | undefined {
  const separator = text.lastIndexOf(":");
  const host = separator < 0 ? "127.0.0.1" : text.slice(0, separator).replace(/^\[|\]$/g, "") || "127.0.0.1";
  const port = optionalPortVariable.unwrap().safeParse(text.slice(separator + 1));
  return port.success ? { host, port: port.data } : undefined;
}

const listenFlag = parsedVariable("host:port or a port (0-65535), e.g. 0.0.0.0:6432", (text) =>
  parseListenAddress(text) === undefined ? undefined : text,
);

/** The text that opens a question in a comment: it must hold a word (`QuestionMarker`). */
const markerFlag = parsedVariable('a word that opens a question in a comment, e.g. "nl:"', (text) => {
  try {
    new QuestionMarker(text);
    return text;
  } catch {
    return undefined;
  }
});

/** A date as `YYYY-MM-DD` after 2022-06-30 (the demo's orders start on 2022-01-01). */
const anchorDateFlag = parsedVariable(
  "a date as YYYY-MM-DD after 2022-06-30 (the demo's orders start on 2022-01-01)",
  (text) => {
    const parsed = Date.parse(`${text}T00:00:00Z`);
    const real = /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(parsed);
    return real && new Date(parsed).toISOString().slice(0, 10) === text && text > "2022-06-30" ? text : undefined;
  },
);

/** The question of `nlq ask`: not empty nor only spaces; trimmed. */
const questionArgument = z.string().transform((text, context) => {
  if (text.trim() === "") {
    context.addIssue({ code: "custom", message: 'is empty: nlq ask "how many customers are there?"' });
    return z.NEVER;
  }
  return text.trim();
});

// ── one schema per command ────────────────────────────────────────────────────────────────

export const askOptionsSchema = z.object({
  question: questionArgument,
  url: databaseUrlFlag.optional(),
  hint: z.string().optional(),
  preset: variableFlag("NLQ_PRESET").optional(),
  json: z.boolean(),
  quiet: z.boolean(),
  /** `--reading N`: answer with interpretation N of the answer instead of #1. */
  reading: wholeNumberFlag(1).optional(),
  /** `--remember`: keep `--reading`'s interpretation as what the role means from now on. */
  remember: z.boolean(),
});

export const startOptionsSchema = z.object({ web: z.boolean() });

/** Units of a relative `--since`: minutes, hours, days, weeks. */
const sinceUnits: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `--since`: a duration back from now (`30m`, `12h`, `7d`, `2w`) or a date or time (`2026-11-27`, `2026-11-27T08:00Z`). */
export function parseSince(text: string, now: Date = new Date()): Date | undefined {
  const relative = /^(\d{1,6})([mhdw])$/.exec(text);
  if (relative) return new Date(now.getTime() - Number(relative[1]) * sinceUnits[relative[2]!]!);
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(text)) return undefined;
  const parsed = Date.parse(text.length === 10 ? `${text}T00:00:00Z` : text);
  return Number.isNaN(parsed) ? undefined : new Date(parsed);
}

export const logOptionsSchema = z.object({
  url: databaseUrlFlag.optional(),
  role: nonEmptyTextFlag.optional(),
  since: parsedVariable("a duration such as 30m, 12h, 7d, 2w, or a date such as 2026-11-27", (text) =>
    parseSince(text),
  ).optional(),
  surface: parsedVariable("one of proxy, web, mcp, cli", (text) =>
    ["proxy", "web", "mcp", "cli"].includes(text) ? text : undefined,
  ).optional(),
  limit: wholeNumberFlag(1).default(50),
  json: z.boolean(),
});

export const mcpOptionsSchema = z.object({
  url: databaseUrlFlag.optional(),
  http: listenFlag.optional(),
  preset: variableFlag("NLQ_PRESET").optional(),
  maxRows: wholeNumberFlag(1),
  maxSessions: wholeNumberFlag(1),
  maxSessionsPerRole: wholeNumberFlag(1),
  allowedOrigin: z.array(z.string()).optional(),
  allowTrustAuth: z.boolean(),
});

export const proxyOptionsSchema = z.object({
  upstream: databaseUrlFlag.optional(),
  listen: listenFlag.optional(),
  marker: markerFlag,
  metadata: z.boolean().optional(),
  queryLog: z.boolean().optional(),
  progress: z.boolean().optional(),
  tlsCert: existingFileFlag.optional(),
  tlsKey: existingFileFlag.optional(),
});

const demoScriptOptions = {
  schema: nonEmptyTextFlag,
  replace: z.boolean(),
  anchorDate: anchorDateFlag,
};

export const demoLoadOptionsSchema = z.object({ url: databaseUrlFlag.optional(), ...demoScriptOptions });

export const demoSqlOptionsSchema = z.object(demoScriptOptions);

export const indexOptionsSchema = z.object({
  url: databaseUrlFlag.optional(),
  catalogFiles: existingPathFlag.optional(),
  schema: z.array(z.string()),
  force: z.boolean(),
  values: z.boolean(),
  embeddings: z.boolean(),
});

export const evalOptionsSchema = z
  .object({
    candidates: existingFileFlag.optional(),
    questions: existingFileFlag.optional(),
    url: databaseUrlFlag.optional(),
    limit: wholeNumberFlag(1).optional(),
    preset: variableFlag("NLQ_PRESET").optional(),
    selectorData: outputFileFlag.optional(),
    compareVerifiedExamples: z.boolean().default(false),
    splitSeed: wholeNumberFlag(0).default(1),
    json: z.boolean(),
  })
  .superRefine((options, context) => {
    if ((options.candidates === undefined) === (options.questions === undefined))
      context.addIssue({ code: "custom", message: "pass exactly one of --candidates FILE and --questions FILE" });
    if (options.selectorData !== undefined && options.candidates === undefined)
      context.addIssue({ code: "custom", message: "--selector-data needs --candidates FILE" });
    if (options.compareVerifiedExamples && options.questions === undefined)
      context.addIssue({ code: "custom", message: "--compare-verified-examples needs --questions FILE" });
  });

export const selectorDataOptionsSchema = z
  .object({
    questions: existingFileFlag.optional(),
    url: databaseUrlFlag.optional(),
    out: outputFileFlag.optional(),
    preset: variableFlag("NLQ_PRESET").optional(),
    limit: wholeNumberFlag(1).optional(),
    seed: wholeNumberFlag(0),
    json: z.boolean(),
  })
  .transform((options, context) => {
    const { questions, out } = options;
    if (questions === undefined)
      context.addIssue({ code: "custom", message: "pass --questions FILE (questions with gold SQL)" });
    if (out === undefined) context.addIssue({ code: "custom", message: "pass --out FILE (where the examples go)" });
    return questions === undefined || out === undefined ? z.NEVER : { ...options, questions, out };
  });

export const benchSchemaSelectionOptionsSchema = z.object({
  corpus: existingFileFlag,
  questions: existingFileFlag,
  limit: wholeNumberFlag(1).optional(),
  evidence: z.boolean(),
  /** Names checked against `hallucinationVariants` of @nlq/eval by the command (loaded only when it runs). */
  variants: commaListFlag.optional(),
  perQuestion: outputFileFlag.optional(),
});

export const benchRetrievalOptionsSchema = z.object({
  corpus: existingFileFlag,
  questions: existingFileFlag,
  hallucinated: z.boolean(),
  evidence: z.boolean(),
  budgets: wholeNumberListFlag(1),
  json: z.boolean(),
  learned: z.boolean(),
  values: existingDirectoryFlag.optional(),
  structure: z.boolean(),
  learnedModel: existingFileFlag.optional(),
});

export const benchValuesOptionsSchema = z.object({
  levels: wholeNumberListFlag(1),
  keywords: wholeNumberFlag(1),
  bruteForceKeywords: wholeNumberFlag(0),
  bruteForceSeconds: wholeNumberFlag(1),
  pgTrgmMax: wholeNumberFlag(0),
  databaseUrl: databaseUrlFlag.optional(),
  spiderDirectory: existingDirectoryFlag.optional(),
  output: outputFileFlag,
  write: z.boolean(),
});

export const benchPromptSizeOptionsSchema = z.object({
  url: databaseUrlFlag,
  metadataDirectory: existingDirectoryFlag.optional(),
  questionsFile: existingFileFlag.optional(),
  questions: wholeNumberFlag(1),
  crushBudget: wholeNumberFlag(1),
  output: outputFileFlag,
  write: z.boolean(),
});

export const benchPresetsOptionsSchema = z.object({
  url: databaseUrlFlag.optional(),
  fixture: existingFileFlag,
  questions: existingFileFlag.optional(),
  count: wholeNumberFlag(1),
  model: variableFlag("NLQ_MODEL").optional(),
  presets: commaListFlag.pipe(
    z.array(variableFlag("NLQ_PRESET")).superRefine((presets, context) => {
      if (presets.length === 0)
        context.addIssue({ code: "custom", message: "must name at least one preset, e.g. fast,balanced,max" });
    }),
  ),
  simulatedLatencyMs: wholeNumberFlag(0),
  json: z.boolean().optional(),
});

// ── from a ZodError to a usage error ──────────────────────────────────────────────────────

/** `--flag-name` of an option key (`bruteForceKeywords` → `--brute-force-keywords`). */
function flagName(key: string): string {
  return `--${key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
}

/**
 * Checks a command's options (as commander hands them over, plus its arguments) against its schema. Returns them
 * parsed; throws one `UsageError` naming every bad flag: `--limit must be a whole number ≥ 1, got "ten"`. `names`
 * names the keys that are not flags (`{ question: "the question" }`).
 */
export function parseCommandOptions<Schema extends z.ZodType>(
  schema: Schema,
  options: unknown,
  names: Readonly<Record<string, string>> = {},
): z.output<Schema> {
  const parsed = schema.safeParse(options);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    const key = issue.path[0];
    if (key === undefined) return issue.message;
    const name = names[String(key)] ?? flagName(String(key));
    // zod's own messages (a wrong type) do not quote the value: say which flag at least.
    return issue.code === "custom" ? `${name} ${issue.message}` : `${name}: ${issue.message}`;
  });
  throw new UsageError(problems.join("; "));
}
