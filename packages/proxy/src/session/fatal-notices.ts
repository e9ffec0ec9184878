import type { WireNotice } from "../protocol/backend-messages";

/** The proxy is shutting down (SIGTERM/SIGINT): PostgreSQL's own code and wording for a server shutdown. */
export const SHUTTING_DOWN: WireNotice = {
  severity: "FATAL",
  code: "57P01",
  message: "terminating connection because the nlq proxy is shutting down",
};

/** Bytes after an SSLRequest, before the handshake: refused as PostgreSQL does since CVE-2021-23214. */
export const DATA_BEFORE_TLS: WireNotice = {
  severity: "FATAL",
  code: "08P01",
  message: "received unencrypted data after SSL request",
};

/** A StartupMessage in the clear while NLQ_TLS_REQUIRED is on. */
export const ENCRYPTION_REQUIRED: WireNotice = {
  severity: "FATAL",
  code: "28000",
  message: "the nlq proxy accepts only encrypted connections (NLQ_TLS_REQUIRED): connect with sslmode=require",
};
