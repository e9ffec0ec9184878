import { readFileSync } from "node:fs";
import path from "node:path";
import { serviceVariables } from "@nlq/adapters";
import { configurationVariableNames } from "@nlq/engine";
import { proxyVariables } from "@nlq/proxy";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { launcherVariables } from "../apps/cli/src/launcher/launcher-settings";
import { webVariables } from "../apps/web/lib/web-settings";

// No Docker engine where the tests run: the compose file and the Dockerfile are checked structurally here; the image
// itself is not built by the tests. It sits beside the repository's scripts because it reads what every workspace
// reads: the pipeline's variables (engine), the shared ones (adapters), the proxy's, `nlq start`'s and the web app's.
const repository = path.resolve(import.meta.dirname, "..");
interface Service {
  image?: string;
  build?: unknown;
  command?: string[] | string;
  environment?: Record<string, string | number>;
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  restart?: string;
}
const compose = parse(readFileSync(path.join(repository, "docker-compose.yml"), "utf8"), { merge: true }) as {
  services: Record<string, Service>;
};
const services = compose.services;
const nlqServices = ["demo-load", "index", "proxy", "web"];
const providerKeys = ["OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GOOGLE_GENERATIVE_AI_API_KEY"];
/** OpenTelemetry's own variable: tracing starts only when it is set (docs/operations.md, "Tracing"). */
const telemetryVariables = ["OTEL_EXPORTER_OTLP_ENDPOINT"];
/** Every variable nlq's processes read through their settings schemas. */
const nlqVariables = [
  ...configurationVariableNames(),
  ...Object.keys(serviceVariables),
  ...Object.keys(proxyVariables),
  ...Object.keys(launcherVariables),
  ...Object.keys(webVariables),
];

describe("docker-compose.yml", () => {
  it("passes every variable of the settings schemas, the providers' keys and the OTLP endpoint to every nlq service", () => {
    // Each variable belongs to one schema: the engine, the adapters, the proxy, `nlq start` or the web app.
    expect(nlqVariables.filter((variable, index) => nlqVariables.indexOf(variable) !== index)).toEqual([]);
    const expected = [...nlqVariables, ...providerKeys, ...telemetryVariables].sort();
    for (const name of nlqServices) {
      const passed = Object.keys(services[name]?.environment ?? {});
      expect(
        expected.filter((variable) => !passed.includes(variable)),
        name,
      ).toEqual([]);
      // Nothing passed that nlq does not read (a misspelt variable would be silently ignored).
      expect(
        passed.filter((variable) => !expected.includes(variable)),
        name,
      ).toEqual([]);
    }
  });

  it("pins every image by version", () => {
    for (const [name, service] of Object.entries(services)) {
      expect(service.image, name).toMatch(/^[\w./-]+:(?!latest$)[\w.-]*\d[\w.-]*$/);
    }
  });

  it("has health checks: pg_isready for PostgreSQL, the proxy's /health on NLQ_METRICS_PORT", () => {
    expect(services.postgres?.healthcheck?.test.join(" ")).toContain("pg_isready");
    const metricsPort = services.proxy?.environment?.NLQ_METRICS_PORT;
    expect(String(metricsPort)).toMatch(/^\d+$/);
    expect(services.proxy?.healthcheck?.test.join(" ")).toContain(`http://127.0.0.1:${metricsPort}/health`);
    for (const name of ["qdrant", "web"]) expect(services[name]?.healthcheck, name).toBeDefined();
  });

  it("runs nlq index once, after the demo data is loaded, before the proxy and the web app start", () => {
    const index = services.index!;
    expect(index.command).toEqual(["node", "apps/cli/bin/nlq.mjs", "index"]);
    expect(index.restart).toBe("no");
    expect(index.depends_on?.["demo-load"]?.condition).toBe("service_completed_successfully");
    for (const name of ["proxy", "web"]) {
      expect(services[name]?.depends_on?.index?.condition, name).toBe("service_completed_successfully");
    }
  });
});

describe("Dockerfile", () => {
  const dockerfile = readFileSync(path.join(repository, "Dockerfile"), "utf8");
  const stages = dockerfile.split(/^FROM /m).slice(1);
  const final = stages.at(-1)!;

  it("is multi-stage, and its final stage installs production dependencies only and runs as a non-root user", () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(final).toMatch(/npm ci --omit=dev/);
    expect(final).toMatch(/^USER node$/m);
    expect(final).toContain("COPY --from=build /app/apps/cli/dist apps/cli/dist");
    for (const stage of stages) expect(stage.split("\n")[0]).toMatch(/^node:\d+\.\d+[\w.-]*( AS \w+)?$/);
  });
});
