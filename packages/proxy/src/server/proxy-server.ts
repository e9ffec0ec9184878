import { type AddressInfo, connect, createServer, type Server, type Socket } from "node:net";
import type { AuditedOutcome, QuestionAsker, QuestionAuditTrail } from "@nlq/adapters";
import {
  type Answer,
  type AnswerQuestionOptions,
  answerWithInterpretation,
  ConfigurationError,
  type QueryLog,
} from "@nlq/engine";
import { createAuthQuery } from "../auth/auth-query";
import { startupUser } from "../auth/client-authentication";
import type { AuthQuerySettings, ClientTlsSettings } from "../config/proxy-server-settings";
import type { WireNotice } from "../protocol/backend-messages";
import { encodeCancelRequest } from "../protocol/frontend-messages";
import { DEFAULT_MARKER } from "../question/detect-question";
import { QuestionMarker } from "../question/question-marker";
import { nativeRelay, nativeRelayUnavailable, type RelayHandBack } from "../relay/native-relay";
import type { PickedAnswer, PickOptions } from "../session/pick-options";
import { ProxyConnection } from "../session/proxy-connection";
import type { BackendKey, ProxySettings } from "../session/proxy-connection-options";
import { DEFAULT_TLS_HANDSHAKE_TIMEOUT_MILLISECONDS, loadClientTls } from "../tls/client-tls";
import { createUpstreamConnector } from "../tls/connect-upstream";
import type { UpstreamTlsSettings } from "../tls/upstream-tls-settings";
import { DEFAULT_CLIENT_LOGIN_TIMEOUT_MILLISECONDS, watchClientLogin } from "./client-login-timeout";
import { CollectAfterParking } from "./collect-after-parking";
import { type OperationsServer, startOperationsServer } from "./operations-server";
import { type ParkedSession, ParkedSessions } from "./parked-sessions";
import { proxyAsker } from "./proxy-asker";
import { consoleLogger, type ProxyLogger } from "./proxy-logger";
import { ProxyMetrics } from "./proxy-metrics";
import { DEFAULT_QUESTION_CAPS, type QuestionCaps, QuestionSlots } from "./question-slots";
import { refuseConnection } from "./refuse-connection";
import { type ReadingConfirmations, rememberPick } from "./remember-pick";
import { upstreamReachable } from "./upstream-reachable";

export interface ProxyServerOptions {
  /** Interface to listen on. Default `127.0.0.1`. */
  readonly listenHost?: string;
  /** Port to listen on; 0 picks a free one. Default 6432. */
  readonly listenPort?: number;
  /** Host of the PostgreSQL server every connection is proxied to. */
  readonly upstreamHost: string;
  /** Port of the upstream PostgreSQL server. Default 5432. */
  readonly upstreamPort?: number;
  /** Text that opens a question inside a comment. Default `nl:`. */
  readonly marker?: string;
  /** Answers one question on the client's own upstream session (`answerQuestion` from `@nlq/engine`). */
  readonly answerQuestion: (options: AnswerQuestionOptions) => Promise<Answer>;
  /** Resolved settings handed to `answerQuestion` (`loadSettings(process.env)`). */
  readonly settings: ProxySettings;
  /** Where traces of answered questions go. Default: none. */
  readonly queryLog?: QueryLog;
  /**
   * The audit trail (`MetadataStore.auditTrail`): each answered or failed question with the connection's role,
   * database, `application_name` and client address. Default: none.
   */
  readonly auditTrail?: Pick<QuestionAuditTrail, "record">;
  /**
   * Where a confirmed pick (`/* nl#2 remember *\/;`) is kept: the metadata store (`rememberPickedReading`: a `reading`
   * knowledge entry and a verified example, the confirming role's own, an administrator's for every role) and the
   * administrator role (`NLQ_WEB_EXAMPLE_ADMIN_ROLE`), asked on the client's own session. A plain pick
   * (`/* nl#2 *\/;`) keeps nothing (docs/decisions/2026-12-01-readings-knowledge-and-teaching.md, rule 2). Default:
   * none — a `remember` pick answers and warns that nothing was kept.
   */
  readonly readingConfirmations?: ReadingConfirmations;
  /** Send pipeline progress (schema read, candidates, model calls) as NOTICEs while answering. Default false. */
  readonly progressNotices?: boolean;
  /** Log sink. Default: `consoleLogger` (stderr). */
  readonly logger?: ProxyLogger;
  /**
   * How long `close()` lets running statements finish before it cancels them and ends their connections,
   * in milliseconds (`NLQ_SHUTDOWN_GRACE_MS` in the commands). Idle connections are closed at once. Default 10000.
   */
  readonly closeGraceMilliseconds?: number;
  /**
   * Client input held while a question is answered, in bytes, before the proxy stops reading that client
   * until the answer is sent. Default 1 MiB.
   */
  readonly clientQueueLimitBytes?: number;
  /**
   * Where to serve the HTTP operations endpoint (`GET /metrics`, `GET /health`); port 0 picks a free one
   * (`NLQ_METRICS_HOST`/`NLQ_METRICS_PORT` in the commands). Default: not served (metrics are still counted).
   */
  readonly metricsListen?: ProxyAddress;
  /**
   * Client connections served at once (`NLQ_MAX_CONNECTIONS` in the commands); one more gets PostgreSQL's own
   * FATAL 53300 "sorry, too many clients already" after its startup packet. Default 1000.
   */
  readonly maxConnections?: number;
  /**
   * Questions answered at once, in all and per role (the startup packet's user): `NLQ_MAX_CONCURRENT_QUESTIONS` and
   * `NLQ_MAX_CONCURRENT_QUESTIONS_PER_ROLE` in the commands. One more fails at once with SQLSTATE 53400 naming the
   * cap; its connection stays usable. Default 64 and 16.
   */
  readonly maxConcurrentQuestions?: QuestionCaps;
  /**
   * TLS toward clients (`NLQ_TLS_CERT`, `NLQ_TLS_KEY`, `NLQ_TLS_REQUIRED`): SSLRequest is answered `S` and PostgreSQL
   * 17's direct negotiation is accepted. The files are read when the server is created. Default: none (`N`).
   */
  readonly clientTls?: ClientTlsSettings;
  /**
   * How long a client may take to complete its TLS handshake (after `S`, or from its first ClientHello byte) before it
   * is disconnected, in milliseconds (`NLQ_TLS_HANDSHAKE_TIMEOUT_MS` in the commands). Default 10000.
   */
  readonly tlsHandshakeTimeoutMilliseconds?: number;
  /**
   * How long a client may take from connecting to sending its StartupMessage (and finishing the proxy's own SCRAM
   * exchange with `authQuery`) before it is disconnected, in milliseconds (`NLQ_CLIENT_LOGIN_TIMEOUT_MS` in the
   * commands); a client beyond `maxConnections` gets at most 10 s. Default 60000.
   */
  readonly clientLoginTimeoutMilliseconds?: number;
  /**
   * Pass ordinary SQL through the native relay when it is built (`NLQ_NATIVE_RELAY` in the commands): connections
   * with nothing for the proxy to watch move their bytes on the relay's own thread, outside JavaScript (TLS
   * connections stay in JavaScript). Default true.
   */
  readonly nativeRelay?: boolean;
  /** TLS toward the upstream (the upstream URL's `sslmode`, `sslrootcert`). Default: plaintext (`sslmode=disable`). */
  readonly upstreamTls?: UpstreamTlsSettings;
  /**
   * Authenticate clients in the proxy with SCRAM-SHA-256 against verifiers this query reads (`NLQ_AUTH_QUERY_URL`,
   * `NLQ_AUTH_QUERY`), then log in upstream with the keys recovered from the client's proof (PgBouncer's auth_query).
   * Default: none, authentication passes through to the upstream.
   */
  readonly authQuery?: AuthQuerySettings;
}

export interface ProxyAddress {
  readonly host: string;
  readonly port: number;
}

export interface ProxyServer {
  /** Starts listening; resolves with the bound address. */
  listen(): Promise<ProxyAddress>;
  /** The bound address (after `listen()`). */
  readonly address: ProxyAddress;
  /** The operations endpoint's bound address (after `listen()`), undefined when `metricsListen` is not set. */
  readonly metricsAddress: ProxyAddress | undefined;
  /** The server's Prometheus metrics (served at `/metrics` when `metricsListen` is set). */
  readonly metrics: ProxyMetrics;
  /** Open client connections. */
  readonly connectionCount: number;
  /** Of `connectionCount`, the idle sessions parked in the native relay (no JavaScript object of theirs but a record). */
  readonly parkedCount: number;
  /**
   * Stops accepting; closes idle connections at once (FATAL 57P01) and busy ones as soon as their statement
   * finishes; after the grace period cancels what still runs and ends those connections. Resolves when
   * every connection is gone.
   */
  close(): Promise<void>;
}

/**
 * A PostgreSQL wire-protocol proxy. TLS toward clients when `clientTls` is set (else SSLRequest is answered `N`);
 * GSSENCRequest is always answered `N`. TLS toward the upstream per `upstreamTls`. Authentication runs end to end
 * with the upstream (SCRAM channel binding cannot cross a proxy that terminates TLS: clients must not require it).
 */
export function createProxyServer(options: ProxyServerOptions): ProxyServer {
  const marker = options.marker ?? DEFAULT_MARKER;
  new QuestionMarker(marker); // Throws ConfigurationError for a marker that could never match.
  const logger = options.logger ?? consoleLogger;
  const upstreamHost = options.upstreamHost;
  const upstreamPort = options.upstreamPort ?? 5432;
  const clientTls =
    options.clientTls === undefined
      ? undefined
      : loadClientTls(
          options.clientTls,
          options.tlsHandshakeTimeoutMilliseconds ?? DEFAULT_TLS_HANDSHAKE_TIMEOUT_MILLISECONDS,
        );
  const clientLoginTimeoutMilliseconds =
    options.clientLoginTimeoutMilliseconds ?? DEFAULT_CLIENT_LOGIN_TIMEOUT_MILLISECONDS;
  const authSource = options.authQuery === undefined ? undefined : createAuthQuery(options.authQuery, logger);
  const connectUpstream = createUpstreamConnector(
    { host: upstreamHost, port: upstreamPort },
    options.upstreamTls ?? { mode: "disable", rootCertificate: undefined },
  );
  const connections = new Set<ProxyConnection>();
  /** Whom a CancelRequest with a key reaches: the connection, or a parked session (never answering: upstream). */
  const byKey = new Map<string, ProxyConnection | ParkedSession>();
  /** Each connection's key in `byKey`, so that closing one needs no scan. */
  const keyByConnection = new Map<ProxyConnection, string>();
  const emptyWaiters: Array<() => void> = [];
  const keyOf = (key: BackendKey) => `${key.processId}:${key.secretKey}`;
  const maxConnections = options.maxConnections ?? 1000;
  const relay = options.nativeRelay === false ? undefined : nativeRelay();
  if (options.nativeRelay !== false && relay === undefined) {
    logger.warn("the native pass-through relay is unavailable: ordinary SQL is relayed in JavaScript", {
      reason: nativeRelayUnavailable(),
    });
  }
  const metrics = new ProxyMetrics({ maxConnections });
  const questionSlots = new QuestionSlots(options.maxConcurrentQuestions ?? DEFAULT_QUESTION_CAPS);
  /** Answers within the caps on questions at once (a refusal is counted as a failed question, SQLSTATE class 53). */
  const withinCapsAudited =
    <Options extends { readonly question: string }>(
      role: () => string,
      asker: () => QuestionAsker | undefined,
      run: (runOptions: Options) => Promise<Answer>,
    ) =>
    async (runOptions: Options): Promise<Answer> => {
      const release = questionSlots.take(role());
      const askedAt = new Date();
      let outcome: AuditedOutcome | undefined;
      try {
        const answer = await run(runOptions);
        outcome = { answer };
        return answer;
      } catch (error) {
        outcome = { error };
        throw error;
      } finally {
        release();
        // The audit trail (issue 19 item 5): queued, never waits and never throws.
        const who = asker();
        if (outcome && who) options.auditTrail?.record(who, runOptions.question, outcome, askedAt);
      }
    };
  const answerAs = (role: () => string, asker: () => QuestionAsker | undefined) =>
    metrics.instrument(withinCapsAudited(role, asker, options.answerQuestion));
  /**
   * A picked interpretation (`/* nl#2 *\/;`) takes a question slot and is audited like an answer (no model runs); it
   * keeps nothing unless the client wrote `remember` (`rememberPick`).
   */
  const pickAs = (role: () => string, asker: () => QuestionAsker | undefined) => {
    const audited = withinCapsAudited<PickOptions & { readonly notices: WireNotice[] }>(
      role,
      asker,
      async (pickOptions) => {
        const answer = await answerWithInterpretation(pickOptions);
        if (pickOptions.remember) {
          pickOptions.notices.push(
            await rememberPick({
              confirmations: options.readingConfirmations,
              pickOptions,
              answer,
              asker: asker(),
              logger,
            }),
          );
        }
        return answer;
      },
    );
    return async (pickOptions: PickOptions): Promise<PickedAnswer> => {
      const notices: WireNotice[] = [];
      const answer = await audited({ ...pickOptions, notices });
      return { answer, notices };
    };
  };

  const cancelUpstream = (key: BackendKey) => {
    const socket = connect({ host: upstreamHost, port: upstreamPort });
    socket.on("error", (error) => logger.warn("could not forward a cancel request", { error: error.message }));
    socket.end(encodeCancelRequest(key.processId, key.secretKey));
  };

  const onCancelRequest = (key: BackendKey) => {
    const target = byKey.get(keyOf(key));
    if (target instanceof ProxyConnection && target.answering) target.abortAnswer();
    else cancelUpstream(key);
  };

  let closing = false;
  const collectAfterParking = new CollectAfterParking();
  const openCount = () => connections.size + parked.size;
  const resolveIfEmpty = () => {
    if (openCount() === 0) for (const resolve of emptyWaiters.splice(0)) resolve();
  };
  /** Idle relayed sessions parked in the relay: no JavaScript object of theirs but a record (`parked-sessions.ts`). */
  const parked = new ParkedSessions({
    wake: (session, handBack, sockets) => {
      const key = session.backendKey === undefined ? undefined : keyOf(session.backendKey);
      if (key !== undefined && byKey.get(key) === session) byKey.delete(key);
      const connection = serve(sockets.client, { session, handBack, upstream: sockets.upstream });
      if (closing) connection.shutdown();
      return connection;
    },
    cancelUpstream: (key) => cancelUpstream(key),
    onEnded: (session) => {
      metrics.connectionClosed();
      const key = session.backendKey === undefined ? undefined : keyOf(session.backendKey);
      if (key !== undefined && byKey.get(key) === session) byKey.delete(key);
      resolveIfEmpty();
    },
    logger,
  });

  /**
   * Serves one client connection: an accepted socket, or a parked session woken by its hand-back (`resumed`: its
   * sockets wrap the relay's descriptors, and it keeps the role and asker it logged in with).
   */
  const serve = (
    client: Socket,
    resumed?: { readonly session: ParkedSession; readonly handBack: RelayHandBack; readonly upstream: Socket },
  ): ProxyConnection => {
    let role = resumed?.session.role ?? "";
    let asker: QuestionAsker | undefined = resumed?.session.asker;
    let stopLoginWatch: () => void = () => {};
    const connection: ProxyConnection = new ProxyConnection({
      client,
      connectUpstream,
      ...(clientTls === undefined ? {} : { clientTls }),
      ...(authSource === undefined ? {} : { authSource }),
      cancelUpstream,
      marker,
      answerQuestion: answerAs(
        () => role,
        () => asker,
      ),
      answerPick: pickAs(
        () => role,
        () => asker,
      ),
      settings: options.settings,
      ...(options.queryLog === undefined ? {} : { queryLog: options.queryLog }),
      progressNotices: options.progressNotices ?? false,
      ...(options.clientQueueLimitBytes === undefined ? {} : { clientQueueLimitBytes: options.clientQueueLimitBytes }),
      ...(relay === undefined ? {} : { relay }),
      ...(relay === undefined
        ? {}
        : {
            parking: {
              park: (adopt, backendKey, conversation) => {
                // Shutting down: a woken session is relayed (not parked) until its shutdown takes it back.
                if (closing) return false;
                const session = parked.park(adopt, { backendKey, role, asker, conversation });
                if (session === undefined) return false;
                collectAfterParking.parked();
                // The connection lets its objects go: the server forgets it and keeps the record.
                stopLoginWatch();
                connections.delete(connection);
                keyByConnection.delete(connection);
                if (backendKey !== undefined) byKey.set(keyOf(backendKey), session);
                return true;
              },
            },
          }),
      ...(resumed === undefined
        ? {}
        : {
            resumed: {
              upstream: resumed.upstream,
              handBack: resumed.handBack,
              backendKey: resumed.session.backendKey,
              conversation: resumed.session.conversation,
            },
          }),
      logger,
      hooks: {
        onCancelRequest,
        onStartupMessage: (packet) => {
          role = roleOf(packet);
          asker = proxyAsker(packet, client, { host: upstreamHost, port: upstreamPort });
        },
        onRelayed: (relayed) => metrics.connectionRelayed(relayed),
        onBackendKey: (key) => {
          byKey.set(keyOf(key), connection);
          keyByConnection.set(connection, keyOf(key));
        },
        onClose: () => {
          stopLoginWatch();
          metrics.connectionClosed();
          connections.delete(connection);
          const key = keyByConnection.get(connection);
          keyByConnection.delete(connection);
          if (key !== undefined && byKey.get(key) === connection) byKey.delete(key);
          resolveIfEmpty();
        },
      },
    });
    if (resumed === undefined) {
      stopLoginWatch = watchClientLogin(connection, clientLoginTimeoutMilliseconds, () =>
        logger.warn("client did not log in in time: disconnected", {
          step: connection.step,
          timeoutMilliseconds: clientLoginTimeoutMilliseconds,
        }),
      );
      metrics.connectionOpened();
    } else if (resumed.session.backendKey !== undefined) {
      const key = keyOf(resumed.session.backendKey);
      byKey.set(key, connection);
      keyByConnection.set(connection, key);
    }
    connections.add(connection);
    // Its hand-back may close it or park it again: the hooks above find it known by then.
    if (resumed !== undefined) connection.resume();
    return connection;
  };

  // Half-open: a client that shuts down its sending side still gets the results of what it sent, as from PostgreSQL.
  const server: Server = createServer({ allowHalfOpen: true }, (client) => {
    if (openCount() >= maxConnections) {
      metrics.connectionRefused();
      // A refused client only gets an error: it waits at most 10 s for it, less when the login timeout is shorter.
      refuseConnection(client, onCancelRequest, Math.min(clientLoginTimeoutMilliseconds, 10_000));
      return;
    }
    serve(client);
  });
  server.on("error", (error) => logger.error("proxy server error", { error }));

  let address: ProxyAddress | undefined;
  let operations: OperationsServer | undefined;
  const startOperations = async (listen: ProxyAddress) => {
    operations = await startOperationsServer({
      ...listen,
      metrics,
      healthy: async () => server.listening && (await upstreamReachable(upstreamHost, upstreamPort)),
      logger,
    });
  };
  const listenProxy = () =>
    new Promise<ProxyAddress>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.listenPort ?? 6432, options.listenHost ?? "127.0.0.1", () => {
        server.off("error", reject);
        const bound = server.address() as AddressInfo;
        address = { host: bound.address, port: bound.port };
        logger.info("listening", {
          ...address,
          upstream: `${upstreamHost}:${upstreamPort}`,
          marker,
          relay: relay === undefined ? "javascript" : "native",
        });
        resolve(address);
      });
    });
  return {
    listen: async () => {
      const bound = await listenProxy();
      if (options.metricsListen !== undefined) {
        try {
          await startOperations(options.metricsListen);
        } catch (error) {
          await new Promise((resolve) => server.close(resolve));
          throw error;
        }
      }
      return bound;
    },
    get address(): ProxyAddress {
      if (address === undefined) throw new ConfigurationError("the proxy server is not listening yet");
      return address;
    },
    get metricsAddress(): ProxyAddress | undefined {
      return operations?.address;
    },
    metrics,
    get connectionCount(): number {
      return openCount();
    },
    get parkedCount(): number {
      return parked.size;
    },
    close: async () => {
      // The operations endpoint stays up while connections drain: /health answers 503 (no longer listening).
      await new Promise<void>((resolve) => {
        if (!server.listening) {
          resolve();
          return;
        }
        closing = true;
        collectAfterParking.stop();
        const grace = setTimeout(() => {
          if (openCount() > 0) logger.warn("grace period over: cancelling", { connections: openCount() });
          parked.dropAll();
          for (const connection of [...connections]) connection.destroy();
        }, options.closeGraceMilliseconds ?? 10_000);
        const done = () => {
          clearTimeout(grace);
          resolve();
        };
        // The grace period runs until every session has ended, parked ones included: the server's own sockets may all
        // be closed (a parked session's were closed when it parked) while a parked session mid-message still waits.
        server.close(() => {
          if (openCount() === 0) done();
          else emptyWaiters.push(done);
        });
        // Parked sessions wake and shut down as they come back (`closing`); the others shut down now.
        const woken = new Set(parked.releaseAll());
        for (const connection of [...connections]) if (!woken.has(connection)) connection.shutdown();
      });
      await operations?.close();
      operations = undefined;
      await authSource?.close();
    },
  };
}

/** The startup packet's user (the role its questions count against); empty when it names none. */
function roleOf(packet: Buffer): string {
  try {
    return startupUser(packet);
  } catch {
    return "";
  }
}

/** Creates a proxy server and starts listening. */
export async function startProxyServer(options: ProxyServerOptions): Promise<ProxyServer> {
  const server = createProxyServer(options);
  await server.listen();
  return server;
}
