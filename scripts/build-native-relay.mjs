#!/usr/bin/env node
// Compiles the proxy's native pass-through relay (packages/proxy/native/pass-through-relay.c, a Node-API addon in C) into
// packages/proxy/native/build/pass-through-relay.node. Run by the root `prepare` script (`npm ci`) and `npm run build`.
//
// One C file against Node-API's headers, so a plain `cc` call does it: no node-gyp, no Python. The headers are Node's
// own (`<prefix>/include/node`, shipped with Node's official builds and Debian's nodejs package). Node-API is ABI-stable,
// so the result loads in any Node.js ≥ 18 on the same platform.
//
// Not fatal: on a machine without a C compiler or the headers (or not Linux: the relay uses epoll) it says why and
// exits 0; the proxy then relays in JavaScript (`nlq proxy` says which relay it uses). `--require` makes it fatal
// (the benchmark and CI use it).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repository = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const source = path.join(repository, "packages/proxy/native/pass-through-relay.c");
const output = path.join(repository, "packages/proxy/native/build/pass-through-relay.node");
const required = process.argv.includes("--require");

function giveUp(reason) {
  const message = `build-native-relay: not built (${reason}); the proxy relays ordinary SQL in JavaScript`;
  console.error(message);
  process.exit(required ? 1 : 0);
}

if (process.platform !== "linux") giveUp(`the native relay uses epoll, this is ${process.platform}`);
if (existsSync(output) && statSync(output).mtimeMs >= statSync(source).mtimeMs) {
  console.error("build-native-relay: packages/proxy/native/build/pass-through-relay.node is up to date");
  process.exit(0);
}

const headerDirectories = [
  path.resolve(path.dirname(process.execPath), "../include/node"),
  "/usr/include/node",
  "/usr/local/include/node",
];
const headers = headerDirectories.find((directory) => existsSync(path.join(directory, "node_api.h")));
if (headers === undefined) giveUp(`no node_api.h in ${headerDirectories.join(", ")}`);

const compilers = process.env.CC ? [process.env.CC] : ["cc", "gcc", "clang"];
const compiler = compilers.find((candidate) => spawnSync(candidate, ["--version"], { stdio: "ignore" }).status === 0);
if (compiler === undefined) giveUp(`no C compiler (${compilers.join(", ")})`);
mkdirSync(path.dirname(output), { recursive: true });
const started = performance.now();
const compiled = spawnSync(
  compiler,
  [
    "-O2",
    "-std=gnu11",
    "-Wall",
    "-Wextra",
    "-Wno-unused-parameter",
    "-fPIC",
    "-shared",
    "-pthread",
    "-fvisibility=hidden",
    `-I${headers}`,
    "-DNAPI_VERSION=8",
    source,
    "-o",
    output,
  ],
  { stdio: ["ignore", "inherit", "inherit"] },
);
if (compiled.error !== undefined) giveUp(`${compiler}: ${compiled.error.message}`);
if (compiled.status !== 0) giveUp(`${compiler} exited with ${compiled.status}`);
console.error(
  `build-native-relay: built packages/proxy/native/build/pass-through-relay.node in ${Math.round(performance.now() - started)} ms`,
);
