export * from "./embedded-postgres-error";
export * from "./embedded-postgres-server";
export * from "./ensure-database";
export * from "./postgres-binaries";
export { ensureServerPassword, passwordFile, type ServerPassword } from "./server-password";
export { type RunningServer, runningServer } from "./server-status";
