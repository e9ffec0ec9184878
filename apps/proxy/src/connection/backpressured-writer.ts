import type { Socket } from "node:net";

/**
 * Returns a write function for `target` that applies backpressure: when `target`'s buffer is full,
 * reading from `source` pauses until `target` drains. Writes to a missing or destroyed socket are dropped.
 */
export function backpressuredWriter(
  target: () => Socket | undefined,
  source: () => Socket | undefined,
): (bytes: Buffer) => void {
  let sourcePaused = false;
  return (bytes) => {
    const socket = target();
    if (socket === undefined || socket.destroyed) return;
    if (!socket.write(bytes) && !sourcePaused) {
      sourcePaused = true;
      source()?.pause();
      socket.once("drain", () => {
        sourcePaused = false;
        source()?.resume();
      });
    }
  };
}
