import { describe, expect, it } from "vitest";
import { startProcessTracing, tracingRequested } from "./process-tracing";

describe("startProcessTracing", () => {
  it("does nothing (and loads nothing) without OTEL_EXPORTER_OTLP_ENDPOINT", async () => {
    expect(tracingRequested({})).toBe(false);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: " " })).toBe(false);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://127.0.0.1:4318/v1/traces" })).toBe(true);
    const errors: string[] = [];
    expect(await startProcessTracing({}, "nlq", (text) => errors.push(text))).toBeUndefined();
    expect(errors).toEqual([]);
  });

  it("reports a bad endpoint and runs the command untraced", async () => {
    const errors: string[] = [];
    const handle = await startProcessTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318" }, "nlq", (text) =>
      errors.push(text),
    );
    expect(handle).toBeUndefined();
    expect(errors).toEqual([
      "nlq: tracing is off: OTEL_EXPORTER_OTLP_ENDPOINT must be an http:// or https:// URL, got a collector: URL\n",
    ]);
  });
});
