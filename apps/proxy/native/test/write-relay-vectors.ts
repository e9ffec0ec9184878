/**
 * Writes the relay rule vectors (relay-rules.vectors.json, expanded by relay-rules-vectors.ts) as lines the C test
 * reads without a JSON parser: `node --import tsx apps/proxy/native/test/write-relay-vectors.ts <output>`
 * (run by scripts/test-native-relay.mjs). Bytes are hex (`-` when empty); markers are encoded as the proxy encodes them
 * for the relay (`QuestionMarker.encodedTokens`).
 *
 *   marker <name> <tokens> <text> <mayAsk 0|1> <asks -1|0|1>
 *   stream <name> <tokens> <pendingReady> <forwardedSinceSync> <readyStatus byte> <copyIn> <step count>
 *   step <c|u> <bytes>                                      (one per step)
 *   expect <stop 0 none|1 question|2 protocol> <forwarded client> <forwarded upstream> <held client> <held upstream>
 *          <pendingReady> <forwardedSinceSync> <readyStatus byte> <copyIn>
 *   chunking <strategy>                                     (then one `cuts <count> <offset>…` line per step)
 *   end
 */
import { writeFileSync } from "node:fs";
import { QuestionMarker } from "../../src/question/question-marker";
import { DEFAULT_VECTOR_MARKER, loadRelayRuleVectors, type StopKind } from "./relay-rules-vectors";

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
for (const vector of vectors.streams) {
  const { start, expected } = vector;
  lines.push(
    `stream ${text(vector.name)} ${tokens(vector.marker)} ${start.pendingReady} ${flag(start.forwardedSinceSync)} ` +
      `${start.readyStatus.charCodeAt(0)} ${flag(start.copyIn)} ${vector.steps.length}`,
  );
  for (const step of vector.steps) lines.push(`step ${step.side === "client" ? "c" : "u"} ${hex(step.bytes)}`);
  lines.push(
    `expect ${STOPS[expected.stop]} ${expected.forwarded.client} ${expected.forwarded.upstream} ` +
      `${expected.held.client} ${expected.held.upstream} ${expected.pendingReady} ` +
      `${flag(expected.forwardedSinceSync)} ${expected.readyStatus.charCodeAt(0)} ${flag(expected.copyIn)}`,
  );
  for (const chunking of vector.chunkings) {
    lines.push(`chunking ${text(chunking.strategy)}`);
    for (const cuts of chunking.cuts) lines.push(`cuts ${cuts.length}${cuts.map((cut) => ` ${cut}`).join("")}`);
  }
  lines.push("end");
}
writeFileSync(output, `${lines.join("\n")}\n`);
