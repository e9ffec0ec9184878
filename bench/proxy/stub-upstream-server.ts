import { spawn } from "node:child_process";
import { createServer, type Server, type Socket } from "node:net";
import { fileURLToPath } from "node:url";

/**
 * A minimal PostgreSQL server for memory measurements of a proxy in front of it: it accepts any startup (trust),
 * sends AuthenticationOk, a few ParameterStatus messages, BackendKeyData and ReadyForQuery, and answers every simple
 * Query with CommandComplete + ReadyForQuery. It lets a benchmark hold 1,000 sessions open through a proxy without a
 * real server's per-backend processes (the local PostgreSQL allows 100 connections). It is not a database: only the
 * proxy's own memory per connection is measured against it.
 */
export interface StubUpstreamServer {
  readonly port: number;
  /** Sessions currently open. */
  readonly sessions: number;
  close(): Promise<void>;
}

function message(type: string, body: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header.write(type, 0, "latin1");
  header.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([header, body]);
}

function int32(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeInt32BE(value);
  return buffer;
}

function cString(text: string): Buffer {
  return Buffer.from(`${text}\0`, "utf8");
}

const authenticationOk = message("R", int32(0));
const readyForQuery = message("Z", Buffer.from("I"));
const commandComplete = message("C", cString("SELECT 0"));
const parameters = [
  ["server_version", "15.0 (nlq benchmark stub)"],
  ["server_encoding", "UTF8"],
  ["client_encoding", "UTF8"],
  ["DateStyle", "ISO, MDY"],
  ["integer_datetimes", "on"],
  ["standard_conforming_strings", "on"],
].map(([name, value]) => message("S", Buffer.concat([cString(name!), cString(value!)])));

function serveSession(socket: Socket, processId: number, onEnd: () => void): void {
  let buffered: Buffer = Buffer.alloc(0);
  let started = false;
  socket.on("error", () => undefined);
  socket.on("close", onEnd);
  socket.on("data", (chunk: Buffer) => {
    buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
    for (;;) {
      if (!started) {
        if (buffered.length < 8) return;
        const length = buffered.readInt32BE(0);
        if (buffered.length < length) return;
        const code = buffered.readInt32BE(4);
        buffered = buffered.subarray(length);
        if (code === 80877103 || code === 80877104) {
          socket.write("N"); // SSLRequest / GSSENCRequest: no encryption
          continue;
        }
        started = true;
        const key = Buffer.concat([int32(processId), int32(processId * 7919)]);
        socket.write(Buffer.concat([authenticationOk, ...parameters, message("K", key), readyForQuery]));
        continue;
      }
      if (buffered.length < 5) return;
      const length = buffered.readInt32BE(1);
      if (buffered.length < length + 1) return;
      const type = String.fromCharCode(buffered[0]!);
      buffered = buffered.subarray(length + 1);
      if (type === "X") {
        socket.end();
        return;
      }
      if (type === "Q") socket.write(Buffer.concat([commandComplete, readyForQuery]));
    }
  });
}

/** Starts the stub on 127.0.0.1 and a free port. */
export async function startStubUpstreamServer(): Promise<StubUpstreamServer> {
  let sessions = 0;
  let nextProcessId = 1;
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sessions += 1;
    sockets.add(socket);
    serveSession(socket, nextProcessId++, () => {
      sessions -= 1;
      sockets.delete(socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the stub server has no TCP address");
  return {
    port: address.port,
    get sessions() {
      return sessions;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * Runs the stub in a child process (`stub-upstream-main.ts`, through tsx's loader) and resolves once it listens;
 * `close` stops it.
 */
export async function startStubUpstreamProcess(): Promise<{ readonly port: number; close(): Promise<void> }> {
  const main = fileURLToPath(new URL("./stub-upstream-main.ts", import.meta.url));
  // `--import tsx` resolves from the working directory: the repository's root, where tsx is installed.
  const repository = fileURLToPath(new URL("../..", import.meta.url));
  const child = spawn(process.execPath, ["--import", "tsx", main], {
    cwd: repository,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let output = "";
    child.once("exit", (code) => reject(new Error(`the stub upstream exited (${code}) before it listened`)));
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
      const line = output.split("\n")[0];
      if (output.includes("\n") && line !== undefined) resolve((JSON.parse(line) as { port: number }).port);
    });
  });
  child.removeAllListeners("exit");
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
