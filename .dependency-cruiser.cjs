/** Enforces the one-way layering of DESIGN.md: apps → core → prompts; core never imports app code. */
module.exports = {
  forbidden: [
    {
      name: "prompts-imports-only-zod",
      severity: "error",
      comment: "packages/prompts is pure: templates and schemas, nothing but zod",
      from: { path: "^packages/prompts", pathNot: "\\.test\\.ts$" },
      to: { pathNot: ["^packages/prompts", "node_modules/zod/"] },
    },
    { name: "not-resolvable", severity: "error", from: {}, to: { couldNotResolve: true } },
    { name: "core-not-to-apps", severity: "error", from: { path: "^packages/" }, to: { path: "^apps/" } },
    {
      name: "core-not-to-app-frameworks",
      severity: "error",
      comment: "core stays free of Next.js, React and socket servers",
      from: { path: "^packages/", pathNot: "\\.test\\.ts$" },
      to: { path: "node_modules/(next|react|react-dom|@ai-sdk/react|@electric-sql/pglite-socket|commander)/" },
    },
    {
      name: "prompts-not-to-core",
      severity: "error",
      from: { path: "^packages/prompts" },
      to: { path: "^packages/core" },
    },
    {
      name: "apps-not-to-each-other",
      severity: "error",
      from: { path: "^apps/([^/]+)/" },
      to: { path: "^apps/", pathNot: "^apps/$1/" },
    },
    {
      name: "no-circular",
      severity: "error",
      comment: "type-only cycles are erased at runtime",
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ["type-only"] } },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)\\.next/|(^|/)next-env\\.d\\.ts$" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.base.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs"],
    },
  },
};
