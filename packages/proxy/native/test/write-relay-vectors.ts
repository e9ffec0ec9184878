/**
 * Writes the relay rule vectors (relay-rules.vectors.json, expanded by relay-rules-vectors.ts) as lines the C test
 * reads without a JSON parser: `node --import tsx packages/proxy/native/test/write-relay-vectors.ts <output>`
 * (run by scripts/test-native-relay.mjs). Bytes are hex (`-` when empty); markers are encoded as the proxy encodes them
 * for the relay (`QuestionMarker.encodedTokens`).
 *
 *   marker <name> <tokens> <text> <mayAsk 0|1> <asks -1|0|1>
 *   stream <name> <tokens> <pendingReady> <forwardedSinceSync> <readyStatus byte> <copyIn> <syncsAfterCommand>
 *          <step count>
 *   step <c|u> <bytes>                                      (one per step)
 *   expect <stop 0 none|1 question|2 protocol> <forwarded client> <forwarded upstream> <held client> <held upstream>
 *          <pendingReady> <forwardedSinceSync> <readyStatus byte> <copyIn> <syncsAfterCommand>
 *          <loose 0|1: a protocol stop, where bytes and forwarded-since-sync are not compared (relay-rules-test.c)>
 *   chunking <strategy>                                     (then one `cuts <count> <offset>…` line per step)
 *   end
 *
 * After the table's streams come random ones (`random stream <seed>`, `FUZZ_STREAMS` of them, seeds from 1): their
 * expected outcome is what the TypeScript rules say (relay-rules-typescript.ts, the stream fed whole), so the C test
 * checks the relay against TypeScript on streams nobody wrote by hand.
 */
import { writeFileSync } from "node:fs";
import { QuestionMarker } from "../../src/question/question-marker";
import { runTypeScriptRules } from "./relay-rules-typescript";
import {
  chunkings,
  DEFAULT_VECTOR_MARKER,
  fuzzStream,
  loadRelayRuleVectors,
  type StopKind,
  type StreamOutcome,
  type StreamVector,
} from "./relay-rules-vectors";

/** Random streams checked against TypeScript's outcome. */
const FUZZ_STREAMS = 2000;

const output = process.argv[2];
if (output === undefined) throw new Error("usage: write-relay-vectors.ts <output file>");

const hex = (bytes: Buffer) => (bytes.length === 0 ? "-" : bytes.toString("hex"));
const text = (value: string) => hex(Buffer.from(value, "utf8"));
const flag = (value: boolean) => (value ? "1" : "0");
const tokens = (marker: string | undefined) => hex(new QuestionMarker(marker ?? DEFAULT_VECTOR_MARKER).encodedTokens());
const STOPS: Record<StopKind, number> = { none: 0, question: 1, protocol: 2 };

const vectors = loadRelayRuleVectors();
const lines: string[] = [];
for (const vector of vectors.markers) {
  const asks = vector.asks === undefined ? "-1" : flag(vector.asks);
  lines.push(
    `marker ${text(vector.name)} ${tokens(vector.marker)} ${text(vector.text)} ${flag(vector.mayAsk)} ${asks}`,
  );
}
for (const vector of vectors.heads) {
  const line = `${text(vector.name)} ${tokens(vector.marker)} ${text(vector.head)} ${flag(vector.mayAsk)}`;
  lines.push(`marker ${line} ${flag(vector.headAsks)}`);
}
function writeStream(
  vector: Pick<StreamVector, "name" | "marker" | "start" | "steps" | "chunkings">,
  expected: StreamOutcome,
): void {
  const { start } = vector;
  lines.push(
    `stream ${text(vector.name)} ${tokens(vector.marker)} ${start.pendingReady} ${flag(start.forwardedSinceSync)} ` +
      `${start.readyStatus.charCodeAt(0)} ${flag(start.copyIn)} ${start.syncsAfterCommand} ${vector.steps.length}`,
  );
  for (const step of vector.steps) lines.push(`step ${step.side === "client" ? "c" : "u"} ${hex(step.bytes)}`);
  // JavaScript ends the connection at a protocol error; what it passed on before it may be less than the relay does.
  const loose = expected.stop === "protocol";
  lines.push(
    `expect ${STOPS[expected.stop]} ${expected.forwarded.client} ${expected.forwarded.upstream} ` +
      `${expected.held.client} ${expected.held.upstream} ${expected.pendingReady} ` +
      `${flag(expected.forwardedSinceSync)} ${expected.readyStatus.charCodeAt(0)} ${flag(expected.copyIn)} ` +
      `${expected.syncsAfterCommand} ${flag(loose)}`,
  );
  for (const chunking of vector.chunkings) {
    lines.push(`chunking ${text(chunking.strategy)}`);
    for (const cuts of chunking.cuts) lines.push(`cuts ${cuts.length}${cuts.map((cut) => ` ${cut}`).join("")}`);
  }
  lines.push("end");
}

for (const vector of vectors.streams) writeStream(vector, vector.expected);
for (let seed = 1; seed <= FUZZ_STREAMS; seed++) {
  const stream = fuzzStream(seed);
  const whole = stream.steps.map(() => []);
  const { routed: _routed, ...expected } = runTypeScriptRules(stream, whole, { route: false });
  writeStream({ ...stream, chunkings: chunkings(stream.steps, seed) }, expected);
}
writeFileSync(output, `${lines.join("\n")}\n`);
