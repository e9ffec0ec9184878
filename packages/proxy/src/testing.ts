// Test support of @nlq/proxy for the workspaces that drive a proxy in their own tests (the CLI, the fuzzer).
export {
  answerWith,
  backendsGone,
  backendsNamed,
  uniqueName,
  upstreamDatabase,
  upstreamUser,
} from "./server/proxy.test-helpers";
