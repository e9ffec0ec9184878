import net from "node:net";
import { isAddressInUse, PortInUseError } from "./launcher-errors";
import type { PortVariable } from "./launcher-settings";

/**
 * Fails with `PortInUseError` (naming `variable`) when `host:port` cannot be bound. Checked before
 * anything starts, so a taken port never leaves half a system running. Port 0 is always free.
 */
export async function assertPortFree(host: string, port: number, variable: PortVariable): Promise<void> {
  if (port === 0) return;
  const server = net.createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen({ host, port, exclusive: true }, () => resolve());
    });
  } catch (error) {
    if (isAddressInUse(error)) throw new PortInUseError({ port, host, variable, cause: error });
    throw error;
  } finally {
    await new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
  }
}
