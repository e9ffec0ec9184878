import { defineConfig } from "vitest/config";

/**
 * One vitest run for every workspace. Tests live beside the code (`*.test.ts`).
 * Integration tests that need the local PostgreSQL read `NLQ_TEST_DATABASE_URL`
 * (default postgresql://postgres@127.0.0.1:5432/postgres).
 */
export default defineConfig({
  test: {
    include: [
      "packages/*/src/**/*.test.ts",
      "packages/proxy/src/**/*.test.ts",
      "apps/cli/src/**/*.test.ts",
      "apps/web/lib/**/*.test.ts",
      "bench/**/*.test.ts",
      "e2e/clients/**/*.test.ts",
      "e2e/adversarial/**/*.test.ts",
      "scripts/**/*.test.ts",
    ],
    exclude: ["**/node_modules/**", "**/.next/**"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    reporters: ["default", "./scripts/summary-reporter.ts"],
  },
});
