/**
 * The relay's rules as one table of test vectors (`relay-rules.vectors.json`), read here for both sides: the vitest
 * test of the TypeScript rules (packages/proxy/src/relay/relay-rules-vectors.test.ts) and the generator of the C test's
 * input (write-relay-vectors.ts → packages/proxy/native/build/relay-rules-vectors.txt, read by relay-rules-test.c).
 *
 * Three tables:
 * - `markers`: a text → whether the marker pre-check says a question may be there (`mayAsk`: the relay hands the
 *   message back), and, where given, whether the text asks one (`asks`, `detectQuestion`; TypeScript only, and the C
 *   side checks it never says "no" where the text asks).
 * - `heads`: the first bytes of a Query too large to hold → `mayAsk` and `headAsks` (`headMayAsk`, TypeScript only).
 * - `streams`: a start state, client and upstream messages in order (`steps`, each one side's messages, fed split at
 *   many offsets: whole, per message, byte by byte, in 64 KiB reads, at each header byte, at random), and the decision:
 *   `stop` none (all forwarded), `question` or `protocol` at message `at` of the last step (that message and the rest
 *   of its step are handed back unforwarded), the state then (owed ReadyForQuery count, forwarded-since-sync, the
 *   transaction status, COPY FROM STDIN, Syncs since the last command: `syncsAfterCommand`, 0 when left out), and for
 *   a question what the router then does with it (`routed`).
 *
 * Message notation (one JSON value per message):
 * - `"S"`, `"H"`, `"c"`, `"X"`: a message of that type with an empty body (Sync, Flush, CopyDone, Terminate);
 *   `{ "f": text }` CopyFail;
 * - `{ "Q": text }` Query; `{ "P": text, "name"? }` Parse (no parameter types); `{ "B": portal, "statement"? }` Bind
 *   (no parameters); `{ "D": "S" | "P", "name"? }` Describe; `{ "F": oid }` FunctionCall (no arguments);
 *   `{ "d": text }` CopyData; client `{ "E": portal }` Execute, upstream `{ "E": message }` ErrorResponse;
 *   `{ "C": tag }` CommandComplete; `{ "Z": status }` ReadyForQuery; `{ "G": 0 }` CopyInResponse (no columns);
 * - Query, Parse and CopyData texts take `"pad": n` (n spaces after the text) and `"then": text` (after the padding);
 * - `{ "type": t, "text": s }` (body: s, NUL-terminated) or `{ "type": t, "hex": h }` (body: those bytes);
 * - `{ "raw": hex }`: bytes as they are (a header with an impossible length).
 */
import { readFileSync } from "node:fs";

export type Side = "client" | "upstream";

export interface RelayState {
  readonly pendingReady: number;
  readonly forwardedSinceSync: boolean;
  readonly readyStatus: string;
  readonly copyIn: boolean;
  /** Syncs forwarded since the client's last Execute, Query or FunctionCall (`CopyInState.syncsAfterCommand`). */
  readonly syncsAfterCommand: number;
}

export type StopKind = "none" | "question" | "protocol";
/** What the router does with a message the relay handed back as a possible question. */
export type RoutedKind = "forward" | "answer" | "split" | "collect" | "pass" | "drop" | "hold";

export interface MarkerVector {
  readonly name: string;
  readonly marker?: string;
  readonly text: string;
  readonly mayAsk: boolean;
  readonly asks?: boolean;
}

export interface HeadVector {
  readonly name: string;
  readonly marker?: string;
  readonly head: string;
  readonly mayAsk: boolean;
  readonly headAsks: boolean;
}

type MessageSpec = string | Readonly<Record<string, unknown>>;

interface StreamVectorSource {
  readonly name: string;
  readonly marker?: string;
  readonly start?: Partial<RelayState>;
  readonly steps: ReadonlyArray<Readonly<Partial<Record<Side, MessageSpec[]>>>>;
  readonly expect: Omit<RelayState, "syncsAfterCommand"> & {
    readonly syncsAfterCommand?: number;
    readonly stop: StopKind;
    readonly at?: number;
    readonly routed?: RoutedKind;
    /** The last message is only partly in the stream (forwarded as it streams). */
    readonly partial?: boolean;
  };
}

export interface StreamStep {
  readonly side: Side;
  readonly bytes: Buffer;
  /** Where each message starts in `bytes`. */
  readonly messageStarts: readonly number[];
}

/** The outcome of feeding a stream: what each side forwarded and still holds, why it stopped, the state then. */
export interface StreamOutcome extends RelayState {
  readonly stop: StopKind;
  readonly forwarded: Readonly<Record<Side, number>>;
  readonly held: Readonly<Record<Side, number>>;
}

export interface StreamVector {
  readonly name: string;
  readonly marker: string;
  readonly start: RelayState;
  readonly steps: readonly StreamStep[];
  readonly expected: StreamOutcome;
  /** What the router does with the handed-back message (question stops only). */
  readonly routed?: RoutedKind;
  /** Ways to cut the steps into chunks: per strategy, per step, the cut offsets (ascending, inside the step). */
  readonly chunkings: ReadonlyArray<{ readonly strategy: string; readonly cuts: ReadonlyArray<readonly number[]> }>;
}

export const DEFAULT_VECTOR_MARKER = "nl:";
/** The relay's read size (READ_SIZE in pass-through-relay.c). */
const READ_SIZE = 65536;
const BYTE_BY_BYTE_LIMIT = 4096;

interface VectorFile {
  readonly markers: MarkerVector[];
  readonly heads: HeadVector[];
  readonly streams: StreamVectorSource[];
}

export function loadRelayRuleVectors(): {
  markers: MarkerVector[];
  heads: HeadVector[];
  streams: StreamVector[];
} {
  const file = JSON.parse(readFileSync(new URL("./relay-rules.vectors.json", import.meta.url), "utf8")) as VectorFile;
  return { markers: file.markers, heads: file.heads, streams: file.streams.map(expandStream) };
}

function expandStream(source: StreamVectorSource, index: number): StreamVector {
  const start: RelayState = {
    pendingReady: source.start?.pendingReady ?? 0,
    forwardedSinceSync: source.start?.forwardedSinceSync ?? false,
    readyStatus: source.start?.readyStatus ?? "I",
    copyIn: source.start?.copyIn ?? false,
    syncsAfterCommand: source.start?.syncsAfterCommand ?? 0,
  };
  const steps = source.steps.map((step): StreamStep => {
    const sides = Object.keys(step) as Side[];
    if (sides.length !== 1 || (sides[0] !== "client" && sides[0] !== "upstream"))
      throw new Error(`${source.name}: a step holds the messages of one side, "client" or "upstream"`);
    const side = sides[0];
    const parts = step[side]!.map((spec) => encodeMessage(spec, side, source.name));
    const messageStarts: number[] = [];
    let offset = 0;
    for (const part of parts) {
      messageStarts.push(offset);
      offset += part.length;
    }
    return { side, bytes: Buffer.concat(parts), messageStarts };
  });
  const { expect } = source;
  const forwarded = { client: 0, upstream: 0 };
  const held = { client: 0, upstream: 0 };
  steps.forEach((step, stepIndex) => {
    const last = stepIndex === steps.length - 1;
    if (expect.stop !== "none" && last) {
      const at = step.messageStarts[expect.at ?? -1];
      if (at === undefined) throw new Error(`${source.name}: "at" must name a message of the last step`);
      forwarded[step.side] += at;
      held[step.side] += step.bytes.length - at;
    } else forwarded[step.side] += step.bytes.length;
  });
  const { stop, pendingReady, forwardedSinceSync, readyStatus, copyIn } = expect;
  const syncsAfterCommand = expect.syncsAfterCommand ?? 0;
  return {
    name: source.name,
    marker: source.marker ?? DEFAULT_VECTOR_MARKER,
    start,
    steps,
    expected: { stop, forwarded, held, pendingReady, forwardedSinceSync, readyStatus, copyIn, syncsAfterCommand },
    ...(expect.routed === undefined ? {} : { routed: expect.routed }),
    chunkings: chunkings(steps, index),
  };
}

export function chunkings(steps: readonly StreamStep[], seed: number): StreamVector["chunkings"] {
  const all = (cut: (step: StreamStep) => number[]) =>
    steps.map((step) => [...new Set(cut(step))].filter((at) => at > 0 && at < step.bytes.length).sort((a, b) => a - b));
  const random = randomNumbers(seed + 1);
  const result = [
    { strategy: "whole", cuts: all(() => []) },
    { strategy: "per message", cuts: all((step) => [...step.messageStarts]) },
    {
      strategy: "at each header byte",
      cuts: all((step) => step.messageStarts.flatMap((start) => [1, 2, 3, 4, 5, 6].map((plus) => start + plus))),
    },
    { strategy: "in 64 KiB reads", cuts: all((step) => range(READ_SIZE, step.bytes.length, READ_SIZE)) },
    {
      strategy: "at random",
      cuts: all((step) => Array.from({ length: 6 }, () => Math.floor(random() * step.bytes.length))),
    },
  ];
  if (steps.every((step) => step.bytes.length <= BYTE_BY_BYTE_LIMIT))
    result.push({ strategy: "byte by byte", cuts: all((step) => range(1, step.bytes.length, 1)) });
  return result;
}

function range(from: number, below: number, by: number): number[] {
  const values: number[] = [];
  for (let value = from; value < below; value += by) values.push(value);
  return values;
}

/** A small seeded generator (xorshift32): the same cuts on every run and on both sides. */
export function randomNumbers(seed: number): () => number {
  let state = (seed * 2654435761) >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 0x100000000;
  };
}

// ── messages ────────────────────────────────────────────────────────────────────────────────────────────────

function message(type: string, ...body: Buffer[]): Buffer {
  const payload = Buffer.concat(body);
  const header = Buffer.alloc(5);
  header.write(type, 0, "latin1");
  header.writeInt32BE(payload.length + 4, 1);
  return Buffer.concat([header, payload]);
}

const cString = (text: string) => Buffer.from(`${text}\0`, "utf8");
const int16 = (value: number) => Buffer.from([(value >> 8) & 0xff, value & 0xff]);
const int32 = (value: number) => {
  const bytes = Buffer.alloc(4);
  bytes.writeInt32BE(value);
  return bytes;
};

function paddedText(spec: Readonly<Record<string, unknown>>, key: string): string {
  return `${String(spec[key])}${" ".repeat(Number(spec.pad ?? 0))}${String(spec.then ?? "")}`;
}

export function encodeMessage(spec: MessageSpec, side: Side, vector: string): Buffer {
  if (typeof spec === "string") {
    if (spec.length !== 1) throw new Error(`${vector}: a message written as a string is one type byte, got ${spec}`);
    return message(spec);
  }
  if (typeof spec.raw === "string") return Buffer.from(spec.raw, "hex");
  if (typeof spec.type === "string") {
    if (typeof spec.hex === "string") return message(spec.type, Buffer.from(spec.hex, "hex"));
    return message(spec.type, cString(String(spec.text ?? "")));
  }
  if ("Q" in spec) return message("Q", cString(paddedText(spec, "Q")));
  if ("P" in spec) return message("P", cString(String(spec.name ?? "")), cString(paddedText(spec, "P")), int16(0));
  if ("B" in spec)
    return message("B", cString(String(spec.B)), cString(String(spec.statement ?? "")), int16(0), int16(0), int16(0));
  if ("D" in spec) return message("D", Buffer.from(String(spec.D), "latin1"), cString(String(spec.name ?? "")));
  if ("F" in spec) return message("F", int32(Number(spec.F)), int16(0), int16(0), int16(0));
  if ("d" in spec) return message("d", Buffer.from(paddedText(spec, "d"), "utf8"));
  if ("f" in spec) return message("f", cString(String(spec.f)));
  if ("E" in spec)
    return side === "client"
      ? message("E", cString(String(spec.E)), int32(0))
      : message("E", cString("SERROR"), cString("C22P02"), cString(`M${String(spec.E)}`), Buffer.from([0]));
  if ("C" in spec) return message("C", cString(String(spec.C)));
  if ("Z" in spec) return message("Z", Buffer.from(String(spec.Z), "latin1"));
  if ("G" in spec) return message("G", Buffer.from([Number(spec.G)]), int16(0));
  throw new Error(`${vector}: unknown message ${JSON.stringify(spec)}`);
}

// ── random streams (the cross-language fuzz vectors) ───────────────────────────────────────────────────────────

const FUZZ_TYPES = "QPSFHBDECdcXZGpf";
const FUZZ_PIECES = [
  "/*",
  "--",
  "nl",
  "NL",
  ":",
  " ",
  "\r",
  "\n",
  "\v",
  "*/",
  "select 1",
  "x",
  "-",
  "/",
  "ask",
  "\0",
  "?",
];
const FUZZ_MARKERS = ["nl:", "ask:", "nl x:", "?"];

/**
 * A random stream to feed both sides: whole messages of the types the relay looks at, marker fragments, now and then an
 * impossible length (without an expected outcome: the generator takes TypeScript's, the C test checks it). Streams end
 * at a message boundary: inside a message the two sides may legitimately differ (the relay notes an upstream message's
 * type at its header and streams it, JavaScript holds the few it inspects whole); cut-off ends are the C fuzz loop's.
 */
export function fuzzStream(seed: number): Pick<StreamVector, "name" | "marker" | "start" | "steps"> {
  const random = randomNumbers(seed);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
  const steps: StreamStep[] = [];
  const stepCount = 1 + Math.floor(random() * 3);
  for (let step = 0; step < stepCount; step++) {
    const parts: Buffer[] = [];
    const messageStarts: number[] = [];
    let offset = 0;
    const messages = 1 + Math.floor(random() * 12);
    for (let index = 0; index < messages; index++) {
      const body = Buffer.from(Array.from({ length: Math.floor(random() * 10) }, () => pick(FUZZ_PIECES)).join(""));
      const bytes = Buffer.concat([Buffer.alloc(5), body]);
      bytes.write(pick([...FUZZ_TYPES]), 0, "latin1");
      let declared = body.length + 4;
      const roll = Math.floor(random() * 64);
      if (roll === 0) declared = Math.floor(random() * 4);
      else if (roll === 1) declared = 0x40000001 + Math.floor(random() * 16);
      else if (roll === 2) declared = 0xffffffff - Math.floor(random() * 4);
      bytes.writeUInt32BE(declared >>> 0, 1);
      messageStarts.push(offset);
      parts.push(bytes);
      offset += bytes.length;
    }
    steps.push({ side: random() < 0.75 ? "client" : "upstream", bytes: Buffer.concat(parts), messageStarts });
  }
  return {
    name: `random stream ${seed}`,
    marker: pick(FUZZ_MARKERS),
    start: {
      pendingReady: Math.floor(random() * 3),
      forwardedSinceSync: random() < 0.5,
      readyStatus: pick(["I", "T", "E"]),
      copyIn: random() < 0.25,
      syncsAfterCommand: Math.floor(random() * 3),
    },
    steps,
  };
}
