#!/usr/bin/env node
// Builds the `nlq` command (apps/cli/src/cli/main.ts) into ES modules under apps/cli/dist/, so the command starts
// without transpiling TypeScript at run time. Run by `npm run build` and by the root `prepare` script (`npm ci`).
//
// esbuild bundles the project's own workspace packages (@nlq/*, TypeScript sources) and leaves every npm dependency
// external (resolved from node_modules at run time, as with tsx). Dynamic `import()`s become separate chunks, so a
// command loads its heavy modules only when it runs. Source maps are written beside the output (node runs with
// --enable-source-maps from bin/nlq.mjs).
//
// The sources locate files beside themselves (`import.meta.dirname`, `new URL("…", import.meta.url)`: migrations,
// the learnt retrieval model, the web app, the watchdog script). A bundle lives elsewhere, so each module's
// `import.meta.url/dirname/filename` is rewritten to its source file's location, expressed relative to the bundle:
// the output keeps working wherever the checkout is moved, as long as the sources sit beside it (they do, in the
// repository and in the Docker image).
import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repository = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// `--out-dir <dir>` builds elsewhere (the build's own test); bin/nlq.mjs runs apps/cli/dist.
const outDirFlag = process.argv.indexOf("--out-dir");
const outputDirectory =
  outDirFlag === -1 ? path.join(repository, "apps/cli/dist") : path.resolve(process.argv[outDirFlag + 1] ?? "");
const entryPoint = path.join(repository, "apps/cli/src/cli/main.ts");

let esbuild;
try {
  esbuild = await import("esbuild");
} catch {
  // `npm ci --omit=dev` (the Docker image's last stage) has no esbuild: the output was built in an earlier stage.
  console.error("build-cli: esbuild is not installed (production install?); keeping apps/cli/dist as it is");
  process.exit(0);
}

/** Rewrites `import.meta.*` in the project's own modules to the source file's location (see above). */
const sourceLocationPlugin = {
  name: "nlq-source-location",
  setup(build) {
    build.onLoad({ filter: /\.(ts|mts)$/ }, async (arguments_) => {
      if (arguments_.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const contents = await readFile(arguments_.path, "utf8");
      if (!contents.includes("import.meta")) return { contents, loader: "ts" };
      const file = toPosix(path.relative(outputDirectory, arguments_.path));
      const directory = toPosix(path.relative(outputDirectory, path.dirname(arguments_.path)));
      const fileUrl = `new URL(${JSON.stringify(file)}, import.meta.url)`;
      const directoryUrl = `new URL(${JSON.stringify(`${directory}/`)}, import.meta.url)`;
      const rewritten = contents
        .replaceAll("import.meta.url", `${fileUrl}.href`)
        .replaceAll("import.meta.dirname", `decodeURIComponent(${directoryUrl}.pathname).replace(/\\/$/, "")`)
        .replaceAll("import.meta.filename", `decodeURIComponent(${fileUrl}.pathname)`);
      return { contents: rewritten, loader: "ts" };
    });
  },
};

/** Bundles @nlq/* (workspace sources); every other bare import stays external. */
const externalDependenciesPlugin = {
  name: "nlq-external-dependencies",
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (arguments_) => {
      if (arguments_.path.startsWith("@nlq/")) return undefined;
      return { path: arguments_.path, external: true };
    });
  },
};

function toPosix(relative) {
  return relative.split(path.sep).join("/");
}

const started = performance.now();
await rm(outputDirectory, { recursive: true, force: true });
const result = await esbuild.build({
  entryPoints: { main: entryPoint },
  outdir: outputDirectory,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  sourcemap: "linked",
  sourcesContent: false,
  logLevel: "warning",
  // The project's packages export their TypeScript sources; prefer the `module`/`import` conditions of the rest.
  conditions: ["import", "node"],
  metafile: true,
  plugins: [externalDependenciesPlugin, sourceLocationPlugin],
});
// The sources the output was built from: bin/nlq.mjs falls back to them when one is newer than the output.
const inputs = Object.keys(result.metafile.inputs)
  .map((input) => toPosix(path.relative(repository, path.resolve(process.cwd(), input))))
  .filter((input) => !input.startsWith("node_modules/"))
  .sort();
await writeFile(path.join(outputDirectory, "build-inputs.json"), `${JSON.stringify(inputs, null, 1)}\n`);
console.error(
  `build-cli: built ${path.relative(repository, outputDirectory)} in ${Math.round(performance.now() - started)} ms`,
);
