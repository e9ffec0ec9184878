import { serialize } from "pg-protocol";
import {
  badLengthMessage,
  between,
  mutatedMessage,
  pick,
  questionBatch,
  type Random,
  randomBodyMessage,
  validMessage,
} from "./frontend-frames";

/** One client session of the fuzzer: the bytes it sends, split into writes, and how many frames they hold. */
export interface FuzzStream {
  /** Frames (messages, whole or not) in the stream, the startup packet included. */
  readonly frames: number;
  /** The startup packets, cut at random offsets into writes. */
  readonly startupWrites: readonly Buffer[];
  /** Whether the client waits for ReadyForQuery before the session's writes (as clients do), or pipelines them. */
  readonly waitForReady: boolean;
  /** The rest of the stream, cut at random offsets into the writes the client makes. */
  readonly sessionWrites: readonly Buffer[];
}

export interface FuzzStreamOptions {
  /** Role the stream logs in as. */
  readonly user: string;
  readonly database: string;
  /** Most frames after the startup packet. */
  readonly maximumFrames: number;
}

/** The untyped first packet: mostly a valid StartupMessage, else SSLRequest first, a CancelRequest or noise. */
function startupPackets(random: Random, options: FuzzStreamOptions): Buffer[] {
  const startup = serialize.startup({ user: options.user, database: options.database, application_name: "nlq-fuzz" });
  const roll = random();
  if (roll < 0.8) return [startup];
  if (roll < 0.88) return [Buffer.from([0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f]), startup];
  if (roll < 0.92) return [serialize.cancel(between(random, 0, 1 << 30), between(random, 0, 1 << 30))];
  return [mutated(random, startup)];
}

/** The frames after startup: recorded valid messages, mutations, random bodies, bad lengths, question batches. */
function sessionFrames(random: Random, count: number): Buffer[] {
  const frames: Buffer[] = [];
  while (frames.length < count) {
    const roll = random();
    if (roll < 0.4) frames.push(validMessage(random));
    else if (roll < 0.6) frames.push(mutatedMessage(random));
    else if (roll < 0.75) frames.push(randomBodyMessage(random));
    else if (roll < 0.78) frames.push(badLengthMessage(random));
    else if (roll < 0.86) frames.push(...questionBatch(random));
    else if (roll < 0.9) frames.push(mutated(random, Buffer.concat(questionBatch(random))));
    else {
      // A pipeline behind a question: a simple-Query question, then whatever follows without waiting.
      frames.push(serialize.query(pick(random, ["/* nl: how many? */", "/* nl: and now? */;"])));
      for (let next = between(random, 1, 8); next > 0; next--) frames.push(validMessage(random));
    }
  }
  return frames;
}

/** `bytes` (a recorded batch) with one to four bytes changed. */
function mutated(random: Random, bytes: Buffer): Buffer {
  const copy = Buffer.from(bytes);
  for (let flip = between(random, 1, 4); flip > 0; flip--)
    copy[between(random, 0, copy.length - 1)] = between(random, 0, 255);
  return copy;
}

/** Cuts `bytes` at random offsets into 1–8 writes. */
export function splitAtRandomOffsets(random: Random, bytes: Buffer): Buffer[] {
  if (bytes.length < 2) return [bytes];
  const cuts = new Set<number>();
  for (let cut = between(random, 0, 7); cut > 0; cut--) cuts.add(between(random, 1, bytes.length - 1));
  const offsets = [0, ...[...cuts].sort((left, right) => left - right), bytes.length];
  return offsets.slice(1).map((end, index) => bytes.subarray(offsets[index]!, end));
}

/** One random client session, split into writes; a few streams end in the middle of a message. */
export function fuzzStream(random: Random, options: FuzzStreamOptions): FuzzStream {
  const startup = startupPackets(random, options);
  const frames = sessionFrames(random, between(random, 0, options.maximumFrames));
  let bytes = Buffer.concat(frames);
  if (random() < 0.1 && bytes.length > 1) bytes = bytes.subarray(0, between(random, 1, bytes.length - 1));
  return {
    frames: startup.length + frames.length,
    startupWrites: splitAtRandomOffsets(random, Buffer.concat(startup)),
    waitForReady: random() < 0.9,
    sessionWrites: splitAtRandomOffsets(random, bytes),
  };
}
