import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Answer } from "@nlq/engine";

/** The form field that holds the picked reading's number. */
const FIELD = "interpretation";
/** The form field that says "use this from now on". */
const REMEMBER = "remember";

/** What the user chose in the form: a reading, and whether to keep it from now on. */
export interface ElicitedReading {
  readonly number: number;
  readonly remember: boolean;
}

/**
 * Asks the user which reading of an ambiguous question was meant, through MCP elicitation (issue 19 item 2): only when
 * the answer leaves the choice open (`needsChoice`, at least two interpretations) and the client declared the
 * `elicitation` capability. The form offers each reading by number with its support, what the phrase in doubt means in
 * it (when the reading step found one) and the computed difference line (SQL in the description), and a "use this from
 * now on" checkbox (unchecked: the pick answers this question only). Resolves to the picked number and the checkbox;
 * undefined when nothing was asked, the user declined or cancelled, or the client failed — the answer then stays #1,
 * with the readings listed in the result.
 */
export async function elicitInterpretation(
  server: Pick<Server, "getClientCapabilities" | "elicitInput">,
  answer: Answer,
  abortSignal?: AbortSignal,
): Promise<ElicitedReading | undefined> {
  const interpretations = answer.interpretations ?? [];
  if (answer.needsChoice !== true || interpretations.length < 2) return undefined;
  if (server.getClientCapabilities()?.elicitation === undefined) return undefined;
  const candidates = answer.selection.candidates;
  try {
    const result = await server.elicitInput(
      {
        mode: "form",
        message:
          `"${answer.question}" can be read ${interpretations.length} ways whose results differ` +
          `${answer.choiceBasis ? ` (${answer.choiceBasis})` : ""}. Which did you mean?`,
        requestedSchema: {
          type: "object",
          properties: {
            [FIELD]: {
              type: "string",
              title: "Reading",
              description: interpretations.map((reading) => `#${reading.number}: ${reading.sql}`).join("\n"),
              oneOf: interpretations.map((reading) => ({
                const: String(reading.number),
                title: `#${reading.number} (${reading.support} of ${candidates} candidates)${reading.reading ? ` «${reading.reading.phrase}» = ${reading.reading.chosen.label}` : ""}: ${reading.chosen ? "nlq's pick" : reading.difference}`,
              })),
              default: String(interpretations[0]!.number),
            },
            [REMEMBER]: {
              type: "boolean",
              title: "Use this from now on",
              description:
                "Keep this reading for later questions (yours; an administrator's applies to every role). Unchecked, the choice answers this question only.",
              default: false,
            },
          },
          required: [FIELD],
        },
      },
      abortSignal === undefined ? undefined : { signal: abortSignal },
    );
    if (result.action !== "accept") return undefined;
    const picked = Number(result.content?.[FIELD]);
    if (!interpretations.some((reading) => reading.number === picked)) return undefined;
    return { number: picked, remember: result.content?.[REMEMBER] === true };
  } catch {
    return undefined;
  }
}
