import net from "node:net";
import { describe, expect, it } from "vitest";
import { freePort } from "./launcher.test-helpers";
import { PortInUseError } from "./launcher-errors";
import { assertPortFree } from "./port-check";

describe("assertPortFree", () => {
  it("accepts a free port and port 0, and releases the port again", async () => {
    const port = await freePort();
    await assertPortFree("127.0.0.1", port, "NLQ_PROXY_PORT");
    await assertPortFree("127.0.0.1", port, "NLQ_PROXY_PORT");
    await assertPortFree("127.0.0.1", 0, "NLQ_PROXY_PORT");
  });

  it("names the variable to change when the port is taken", async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as net.AddressInfo).port;
    try {
      const failure = assertPortFree("127.0.0.1", port, "NLQ_WEB_PORT");
      await expect(failure).rejects.toBeInstanceOf(PortInUseError);
      await expect(assertPortFree("127.0.0.1", port, "NLQ_WEB_PORT")).rejects.toThrow(
        `port ${port} on 127.0.0.1 (the web app) is already in use: stop what uses it or set NLQ_WEB_PORT to a free port`,
      );
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
