import type { Socket } from "node:net";
import type { ReadPauses } from "./read-pauses";

/**
 * Returns a write function for `target` that applies backpressure: when `target`'s buffer is full,
 * reading from the source (`sourcePauses`) pauses until `target` drains. Writes to a missing or
 * destroyed socket are dropped.
 */
export function backpressuredWriter(
  target: () => Socket | undefined,
  sourcePauses: ReadPauses,
): (bytes: Buffer) => void {
  return (bytes) => {
    const socket = target();
    if (socket === undefined || socket.destroyed) return;
    if (!socket.write(bytes) && !sourcePauses.has("peer-full")) {
      sourcePauses.hold("peer-full");
      socket.once("drain", () => sourcePauses.release("peer-full"));
    }
  };
}
