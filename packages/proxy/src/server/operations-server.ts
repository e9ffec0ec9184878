import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { ProxyLogger } from "./proxy-logger";
import type { ProxyMetrics } from "./proxy-metrics";

export interface OperationsServerOptions {
  /** Interface to listen on (`NLQ_METRICS_HOST`). */
  readonly host: string;
  /** Port to listen on; 0 picks a free one (`NLQ_METRICS_PORT`). */
  readonly port: number;
  readonly metrics: ProxyMetrics;
  /** True when the proxy is healthy (listening, upstream reachable). */
  readonly healthy: () => Promise<boolean>;
  readonly logger: ProxyLogger;
}

export interface OperationsServer {
  readonly address: { readonly host: string; readonly port: number };
  close(): Promise<void>;
}

/**
 * The proxy's HTTP endpoint for operations (node:http): `GET /metrics` in Prometheus' text format and
 * `GET /health`, 200 `{"status":"ok"}` or 503 `{"status":"unavailable"}`. Anything else is 404 (405 for a method
 * other than GET or HEAD).
 */
export async function startOperationsServer(options: OperationsServerOptions): Promise<OperationsServer> {
  const server: Server = createServer((request, response) => {
    respond(request, response, options).catch((error: unknown) => {
      options.logger.error("operations endpoint failed", { error, path: request.url });
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  server.on("error", (error) => options.logger.error("operations endpoint error", { error }));
  const bound = server.address() as AddressInfo;
  const address = { host: bound.address, port: bound.port };
  options.logger.info("metrics and health endpoint listening", address);
  return {
    address,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function respond(request: IncomingMessage, response: ServerResponse, options: OperationsServerOptions) {
  const path = new URL(request.url ?? "/", "http://localhost").pathname;
  if (path !== "/metrics" && path !== "/health") {
    send(response, request, 404, "text/plain; charset=utf-8", "not found: try /metrics or /health\n");
    return;
  }
  if (request.method !== "GET" && request.method !== "HEAD") {
    response.setHeader("Allow", "GET, HEAD");
    send(response, request, 405, "text/plain; charset=utf-8", "method not allowed\n");
    return;
  }
  if (path === "/metrics") {
    send(response, request, 200, options.metrics.contentType, await options.metrics.text());
    return;
  }
  const healthy = await options.healthy();
  send(
    response,
    request,
    healthy ? 200 : 503,
    "application/json",
    JSON.stringify({ status: healthy ? "ok" : "unavailable" }),
  );
}

function send(response: ServerResponse, request: IncomingMessage, status: number, type: string, body: string) {
  response.writeHead(status, { "Content-Type": type, "Content-Length": Buffer.byteLength(body) });
  response.end(request.method === "HEAD" ? undefined : body);
}
