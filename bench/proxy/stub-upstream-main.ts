/**
 * The stub upstream (`stub-upstream-server.ts`) as a process of its own: `startStubUpstreamProcess` runs it, so that the
 * sessions it holds open do not count against the benchmark process's file descriptor limit (at 10,000 idle sessions
 * the benchmark holds 10,000 client sockets and the stub 10,000 more). Prints `{"port": …}` on one line once listening
 * and serves until SIGTERM.
 */
import { startStubUpstreamServer } from "./stub-upstream-server";

const stub = await startStubUpstreamServer();
process.stdout.write(`${JSON.stringify({ port: stub.port })}\n`);
process.once("SIGTERM", () => {
  void stub.close().then(() => process.exit(0));
});
