import type { ProxyLogger } from "./proxy-logger";

/**
 * Keeps a long-running proxy process serving when an error escapes every connection's own handling:
 * an uncaught exception or unhandled rejection is logged, not fatal, so one client can never take
 * the other clients down with it. Returns a function that removes the guard.
 */
export function installProcessGuard(logger: ProxyLogger): () => void {
  const onException = (error: Error) => logger.error("uncaught exception (kept serving)", { error });
  const onRejection = (reason: unknown) => logger.error("unhandled rejection (kept serving)", { error: reason });
  process.on("uncaughtException", onException);
  process.on("unhandledRejection", onRejection);
  return () => {
    process.off("uncaughtException", onException);
    process.off("unhandledRejection", onRejection);
  };
}
