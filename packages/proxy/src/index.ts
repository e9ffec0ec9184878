// Public API of @nlq/proxy: what the nlq command (apps/cli), the end-to-end tests and the benchmarks use. Everything
// else stays inside the package. Test support for other workspaces: @nlq/proxy/testing.

export {
  type ClientTlsSettings,
  loadProxyServerSettings,
  type ProxyServerSettings,
  proxyServerSettingsFrom,
  proxyVariables,
} from "./config/proxy-server-settings";
export { encodeReadyForQuery } from "./protocol/backend-messages";
export { encodeCancelRequest } from "./protocol/frontend-messages";
export { describeAnswerSentence } from "./question/describe-answer-sentence";
export { DEFAULT_MARKER } from "./question/detect-question";
export { QuestionMarker } from "./question/question-marker";
export { installProcessGuard } from "./server/process-guard";
export { consoleLogger, silentLogger } from "./server/proxy-logger";
export { type ProxyServer, type ProxyServerOptions, startProxyServer } from "./server/proxy-server";
export type { ProxySettings } from "./session/proxy-connection-options";
export { INTERNAL_ERROR_MESSAGE } from "./session/wire-error";
export { type UpstreamTlsSettings, upstreamTlsFromUrl } from "./tls/upstream-tls-settings";
