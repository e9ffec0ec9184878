import { connect, type Socket } from "node:net";

/** A StartupMessage (protocol 3.0) for `user` and `database`. */
function startupMessage(user: string, database: string): Buffer {
  const body = Buffer.from(`user\0${user}\0database\0${database}\0\0`, "utf8");
  const message = Buffer.alloc(8 + body.length);
  message.writeInt32BE(message.length, 0);
  message.writeInt32BE(196608, 4);
  body.copy(message, 8);
  return message;
}

/** Opens one session (startup, trust authentication) and resolves at its first ReadyForQuery. */
function openSession(port: number, user: string, database: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let buffered: Buffer = Buffer.alloc(0);
    const fail = (error: Error) => {
      socket.destroy();
      reject(error);
    };
    socket.once("error", fail);
    socket.once("connect", () => socket.write(startupMessage(user, database)));
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      while (buffered.length >= 5) {
        const length = buffered.readInt32BE(1);
        if (buffered.length < length + 1) return;
        const type = String.fromCharCode(buffered[0]!);
        buffered = buffered.subarray(length + 1);
        if (type === "E") return fail(new Error("the server refused the session"));
        if (type === "Z") {
          socket.off("data", onData);
          socket.off("error", fail);
          socket.on("error", () => undefined);
          return resolve(socket);
        }
      }
    };
    socket.on("data", onData);
  });
}

export interface IdleConnectionMeasurement {
  readonly connections: number;
  readonly residentBeforeKibibytes: number;
  readonly residentAfterKibibytes: number;
  /** (after − before) / connections. */
  readonly kibibytesPerConnection: number;
}

const pause = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/**
 * Opens `connections` authenticated, idle sessions through a server (50 at a time), waits for its memory to settle and
 * reports the growth of its resident set per session. The sessions are closed afterwards.
 */
export async function measureIdleConnections(
  target: { readonly port: number; residentKibibytes(): number },
  connections: number,
): Promise<IdleConnectionMeasurement> {
  await pause(1_000);
  const residentBeforeKibibytes = target.residentKibibytes();
  const sockets: Socket[] = [];
  try {
    for (let opened = 0; opened < connections; opened += 50) {
      const batch = Math.min(50, connections - opened);
      sockets.push(
        ...(await Promise.all(Array.from({ length: batch }, () => openSession(target.port, "postgres", "postgres")))),
      );
    }
    await pause(2_000);
    const residentAfterKibibytes = target.residentKibibytes();
    return {
      connections,
      residentBeforeKibibytes,
      residentAfterKibibytes,
      kibibytesPerConnection: (residentAfterKibibytes - residentBeforeKibibytes) / connections,
    };
  } finally {
    for (const socket of sockets) socket.destroy();
  }
}
