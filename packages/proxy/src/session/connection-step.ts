/**
 * Steps of one proxied client connection (pg-gateway style: the connection switches on its step). The step is the tag
 * of `ConnectionState` (`connection-state.ts`), which carries each step's own data.
 */
export enum ConnectionStep {
  /** Waiting for the untyped startup packet (SSLRequest, GSSENCRequest, CancelRequest, StartupMessage). */
  AwaitingStartup = "awaiting-startup",
  /** SSLRequest answered `S` (or a TLS ClientHello came first): the TLS handshake runs; plaintext is refused. */
  NegotiatingClientTls = "negotiating-client-tls",
  /** The proxy authenticates the client itself (SCRAM-SHA-256 against the auth query's verifier). */
  AuthenticatingClient = "authenticating-client",
  /** StartupMessage received; the upstream connection is opening (TLS negotiated first): client input is queued. */
  ConnectingUpstream = "connecting-upstream",
  /** StartupMessage forwarded; authentication runs end to end between client and upstream. */
  Authenticating = "authenticating",
  /** Passing messages through; simple Query and Parse texts are checked for the marker. */
  Ready = "ready",
  /** Answering a question (or reporting a question error) on the upstream session; client input is queued. */
  Answering = "answering",
  /** A Parse (or a Bind of such a statement) carried a question: collect the batch until Sync, then answer it. */
  CollectingQuestionBatch = "collecting-question-batch",
  /** Ready, with both sockets handed to the native relay: it alone reads and writes them until it hands them back. */
  Relayed = "relayed",
  Closed = "closed",
}
