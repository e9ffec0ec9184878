export * from "./embedded-postgres-error";
export * from "./embedded-postgres-server";
export * from "./ensure-database";
export * from "./postgres-binaries";
export { type RunningServer, runningServer } from "./server-status";
