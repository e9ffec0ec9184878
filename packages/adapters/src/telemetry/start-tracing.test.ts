import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { ConfigurationError } from "@nlq/engine";
import { context, trace } from "@opentelemetry/api";
import { afterAll, describe, expect, it } from "vitest";
import { startTracing, tracesUrl } from "./start-tracing";

describe("tracesUrl", () => {
  it("is off without OTEL_EXPORTER_OTLP_ENDPOINT, or with OTEL_SDK_DISABLED=true", () => {
    expect(tracesUrl({})).toBeUndefined();
    expect(tracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: "  " })).toBeUndefined();
    expect(
      tracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318", OTEL_SDK_DISABLED: "true" }),
    ).toBeUndefined();
  });

  it("appends /v1/traces to the base endpoint and takes a traces endpoint as given", () => {
    expect(tracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" })).toBe(
      "http://collector:4318/v1/traces",
    );
    expect(
      tracesUrl({
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://traces.example/otlp",
      }),
    ).toBe("https://traces.example/otlp");
  });

  it("refuses a value that is not an http(s) URL", () => {
    expect(() => tracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318" })).toThrow(ConfigurationError);
    expect(() => tracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: "not a url" })).toThrow(
      /OTEL_EXPORTER_OTLP_ENDPOINT must be an http/,
    );
  });
});

describe("startTracing", () => {
  const received: Array<{ path: string; contentType: string; body: Buffer }> = [];
  const collector = createServer((request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({
        path: request.url ?? "",
        contentType: request.headers["content-type"] ?? "",
        body: Buffer.concat(chunks),
      });
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  afterAll(async () => {
    trace.disable();
    context.disable();
    await new Promise((resolve) => collector.close(resolve));
  });

  it("registers nothing when tracing is off", async () => {
    expect(await startTracing({}, { serviceName: "nlq-test" })).toBeUndefined();
    expect(trace.getTracer("nlq-test").startSpan("probe").isRecording()).toBe(false);
  });

  it("exports spans by OTLP/HTTP to OTEL_EXPORTER_OTLP_ENDPOINT/v1/traces, with the service name", async () => {
    await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve));
    const { port } = collector.address() as AddressInfo;
    const handle = await startTracing(
      { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}` },
      { serviceName: "nlq-test-service" },
    );
    expect(handle?.url).toBe(`http://127.0.0.1:${port}/v1/traces`);
    const span = trace.getTracer("nlq-test").startSpan("nlq.test_span");
    expect(span.isRecording()).toBe(true);
    span.end();
    await handle?.shutdown();
    expect(received).toHaveLength(1);
    expect(received[0]!.path).toBe("/v1/traces");
    const body = received[0]!.body.toString("latin1");
    expect(body).toContain("nlq.test_span");
    expect(body).toContain("nlq-test-service");
  });
});
