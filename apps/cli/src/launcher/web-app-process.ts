import { createRequire } from "node:module";
import path from "node:path";
import { type ChildProcessGroup, spawnProcessGroup } from "./child-process-group";
import { LauncherError } from "./launcher-errors";
import { webBuildIsStale } from "./web-build-freshness";

/** The Next.js web app running as a child process group. */
export interface WebApp {
  readonly url: string;
  /** Stops the whole process group (SIGTERM, SIGKILL after a grace period). Idempotent. */
  stop(): Promise<void>;
}

export interface StartWebAppOptions {
  /** The web app's directory (`apps/web`). */
  readonly directory: string;
  readonly host: string;
  readonly port: number;
  /** Environment of the child: the user's variables plus DATABASE_URL and NLQ_METADATA_URL. */
  readonly environment: NodeJS.ProcessEnv;
  /** Progress lines and the child's output (prefixed). */
  readonly log: (line: string) => void;
  /** Aborts a running build or start (Ctrl-C during the first build). */
  readonly abortSignal?: AbortSignal;
  /** The `next` CLI script to run with Node. Default: `next/dist/bin/next` resolved from `directory`. */
  readonly nextBinary?: string;
  /** How long to wait for the server to answer HTTP (default 120000 ms). */
  readonly readyTimeoutMilliseconds?: number;
  /** A build already under way (`buildWebApp`, started early to run beside the rest). Default: built here. */
  readonly built?: Promise<void>;
}

/** What `buildWebApp` needs. */
export type BuildWebAppOptions = Pick<
  StartWebAppOptions,
  "directory" | "environment" | "log" | "abortSignal" | "nextBinary"
>;

function nextBinaryOf(options: BuildWebAppOptions): string {
  return (
    options.nextBinary ?? createRequire(path.join(options.directory, "package.json")).resolve("next/dist/bin/next")
  );
}

/** Next.js would otherwise announce (and try to send) anonymous telemetry; nlq runs offline. */
function nextEnvironmentOf(options: BuildWebAppOptions): NodeJS.ProcessEnv {
  return { ...options.environment, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" };
}

/**
 * Builds the web app when its build is missing or older than its sources (`webBuildIsStale`); resolves at once
 * otherwise. `nlq start` starts it first, so the build runs while PostgreSQL, the demo data and the proxy start.
 */
export async function buildWebApp(options: BuildWebAppOptions): Promise<void> {
  if (!webBuildIsStale(options.directory)) return;
  const started = Date.now();
  options.log("building the web app in the background (first start, or its sources changed; a minute or two)…");
  const build = spawnProcessGroup(process.execPath, [nextBinaryOf(options), "build"], {
    cwd: options.directory,
    environment: nextEnvironmentOf(options),
    onLine: (line) => options.log(`[web build] ${line}`),
  });
  const exit = await untilExitOrAbort(build, options.abortSignal);
  if (exit !== 0)
    throw new LauncherError(
      `building the web app failed (next build exited with ${exit}); see the [web build] lines above, or start with --no-web`,
    );
  options.log(`web app built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** The web app directory of this repository, found relative to this file. */
export function defaultWebDirectory(): string {
  return path.resolve(import.meta.dirname, "../../../web");
}

/** Builds the web app if needed (or waits for `options.built`), then runs `next start`. */
export async function startWebApp(options: StartWebAppOptions): Promise<WebApp> {
  await (options.built ?? buildWebApp(options));
  const nextBin = nextBinaryOf(options);
  const forward = (line: string) => options.log(`[web] ${line}`);
  const nextEnvironment = nextEnvironmentOf(options);
  const server = spawnProcessGroup(
    process.execPath,
    [nextBin, "start", "-H", options.host, "-p", String(options.port)],
    {
      cwd: options.directory,
      environment: {
        ...nextEnvironment,
        PORT: String(options.port),
        HOSTNAME: options.host,
      },
      onLine: forward,
    },
  );
  const url = `http://${options.host}:${options.port}`;
  try {
    await untilAnswering(url, server, options);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return { url, stop: () => server.stop() };
}

async function untilExitOrAbort(
  group: ChildProcessGroup,
  abortSignal: AbortSignal | undefined,
): Promise<number | string> {
  const onAbort = () => void group.stop();
  abortSignal?.addEventListener("abort", onAbort, { once: true });
  try {
    return await group.exited;
  } finally {
    abortSignal?.removeEventListener("abort", onAbort);
  }
}

async function untilAnswering(url: string, server: ChildProcessGroup, options: StartWebAppOptions): Promise<void> {
  const deadline = Date.now() + (options.readyTimeoutMilliseconds ?? 120_000);
  let exit: number | string | undefined;
  void server.exited.then((code) => {
    exit = code;
  });
  while (Date.now() < deadline) {
    if (options.abortSignal?.aborted) throw new LauncherError("stopped while the web app was starting");
    if (exit !== undefined)
      throw new LauncherError(
        `the web app exited with ${exit} while starting; see the [web] lines above, or start with --no-web`,
      );
    try {
      await fetch(url, { signal: AbortSignal.timeout(5_000), redirect: "manual" });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  throw new LauncherError(
    `the web app did not answer on ${url} within ${(options.readyTimeoutMilliseconds ?? 120_000) / 1000} s`,
  );
}
