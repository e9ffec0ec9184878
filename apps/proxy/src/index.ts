// Public API of @nlq/proxy.
export * from "./connection/connection-step";
export type { BackendKey, ProxyConnectionHooks, ProxySettings } from "./connection/proxy-connection-options";
export * from "./connection/question-errors";
export * from "./connection/upstream-query-executor";
export * from "./connection/wire-error";
export * from "./protocol/backend-messages";
export * from "./protocol/extended-messages";
export * from "./protocol/frontend-messages";
export * from "./protocol/message-framer";
export * from "./protocol/protocol-error";
export * from "./question/detect-question";
export * from "./server/process-guard";
export * from "./server/proxy-logger";
export * from "./server/proxy-server";
export * from "./tls/accept-client-tls";
export * from "./tls/upstream-tls-error";
export * from "./tls/upstream-tls-settings";
