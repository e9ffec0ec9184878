import { Socket, type SocketConstructorOpts } from "node:net";

/**
 * The part of a `net.Socket`'s libuv handle that the native relay needs. Node.js keeps it private (`_handle`); these
 * are the same fields its own `net` and stream code use (`reading`, `readStart`, `readStop`, `fd`), unchanged since
 * Node.js 12.
 */
interface StreamHandle {
  readonly fd?: number;
  reading?: boolean;
  readStart(): number;
  readStop(): number;
}

function handleOf(socket: Socket): StreamHandle | undefined {
  const handle = (socket as unknown as { _handle?: StreamHandle | null })._handle;
  return handle === null || handle === undefined || typeof handle.readStop !== "function" ? undefined : handle;
}

/**
 * The socket's file descriptor when another reader may take it over: a plain TCP socket, connected, not destroyed,
 * with nothing unwritten or unread on the Node.js side. Undefined otherwise (a TLS socket has no descriptor of its own).
 */
export function socketDescriptor(socket: Socket): number | undefined {
  if (socket.destroyed || socket.connecting || socket.writableLength > 0 || socket.readableLength > 0) return undefined;
  if ((socket as { encrypted?: boolean }).encrypted === true) return undefined;
  const descriptor = handleOf(socket)?.fd;
  return typeof descriptor === "number" && descriptor >= 0 ? descriptor : undefined;
}

/**
 * Stops libuv reading the socket while another reader owns it. Node.js's stream layer must not start it again: its
 * `Socket._read` (called whenever the Readable wants more, e.g. `maybeReadMore` after a 'data' event) restarts libuv
 * whenever `handle.reading` is false. So `reading` stays true, as if Node.js were reading, while libuv is stopped.
 */
export function stopReading(socket: Socket): void {
  const handle = handleOf(socket);
  if (handle === undefined) return;
  handle.reading = true;
  handle.readStop();
}

/** Reads the socket again after `stopReading`. */
export function resumeReading(socket: Socket): void {
  const handle = handleOf(socket);
  if (handle === undefined || socket.destroyed) return;
  handle.reading = true;
  handle.readStart();
}

/**
 * Closes a socket whose descriptor the relay now relays on a duplicate of its own (`NativeRelay.park`): its listeners
 * go first, so that its 'close' is nobody's event, and destroying it closes only this descriptor (the connection stays
 * open on the relay's duplicate: no FIN is sent while a descriptor remains).
 */
export function closeParkedSocket(socket: Socket): void {
  socket.removeAllListeners();
  socket.on("error", () => undefined);
  socket.destroy();
}

/**
 * A socket on a descriptor handed back by the relay (a parked connection's): not reading yet (`resumeReading` starts
 * it, as for a socket taken back), half-open allowed (the client may shut down its sending side and still read).
 */
export function socketOfDescriptor(descriptor: number): Socket {
  // `manualStart` (Node.js's own option, used by its child_process and cluster code): no read before `resumeReading`.
  const options = { fd: descriptor, readable: true, writable: true, allowHalfOpen: true, manualStart: true };
  return new Socket(options as SocketConstructorOpts);
}
