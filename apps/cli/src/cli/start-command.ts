import { demoTableNames, loadDemoData } from "@nlq/demo";
import { loadSettings, NlqError } from "@nlq/engine";
import { consoleLogger, installProcessGuard, loadProxyServerSettings, startProxyServer } from "@nlq/proxy";
import type { Command } from "commander";
import { ignoreBrokenPipe } from "../launcher/ignore-broken-pipe";
import { resolveLauncherSettings } from "../launcher/launcher-settings";
import { type Launcher, startLauncher } from "../launcher/start-launcher";
import { defaultWebDirectory } from "../launcher/web-app-process";
import { parseCommandOptions, startOptionsSchema } from "./command-options";
import { refuseInput } from "./command-output";
import { indexDemoDatabase } from "./index-demo";
import { proxyAnswerQuestion } from "./proxy-command";

/**
 * `nlq start` (what the root `npm start` runs): the embedded demo database (unless DATABASE_URL is
 * set), the metadata store, the proxy and the web app, with one Ctrl-C to stop them all.
 */
export function registerStartCommand(program: Command): void {
  program
    .command("start")
    .description(
      "Start everything on 127.0.0.1: an embedded PostgreSQL with demo data (unless DATABASE_URL is set), the metadata store, the proxy and the web app",
    )
    .option("--no-web", "do not start the web app")
    .addHelpText(
      "after",
      `
Environment:
  DATABASE_URL        your PostgreSQL (default: the demo database of an embedded PostgreSQL 18 in $NLQ_HOME/.nlq/postgres)
  NLQ_HOME            where .nlq/ lives (default: the current directory)
  NLQ_MODEL           provider:model, e.g. openai:gpt-4o-mini, or scripted:fixtures/demo-model.json (offline replay)
  NLQ_METADATA_URL    PostgreSQL for the metadata store (default: database nlq_metadata of the embedded PostgreSQL)
  NLQ_PROXY_PORT      default 6432      NLQ_WEB_PORT       default 3000
  NLQ_EMBEDDED_PORT   default 54320 (the embedded PostgreSQL)`,
    )
    .action(async (givenOptions: Record<string, unknown>) => {
      let options: { web: boolean };
      try {
        options = parseCommandOptions(startOptionsSchema, givenOptions);
      } catch (error) {
        refuseInput("start", error);
        return;
      }
      process.exitCode = await runStart(options);
      // Everything is closed; should a library still hold the event loop, leave anyway.
      setTimeout(() => process.exit(), 3_000).unref();
    });
}

/** Runs until SIGINT, SIGTERM or SIGHUP; resolves with the process exit code. */
async function runStart(options: { web: boolean }): Promise<number> {
  const log = (line: string) => console.log(line);
  ignoreBrokenPipe();
  installProcessGuard(consoleLogger);
  let launcher: Launcher;
  try {
    const settings = loadSettings(process.env);
    const {
      qdrant,
      metricsListen,
      maxConnections,
      maxConcurrentQuestions,
      nativeRelay,
      clientTls,
      tlsHandshakeTimeoutMilliseconds,
      clientLoginTimeoutMilliseconds,
      authQuery,
      shutdownGraceMilliseconds,
      webExampleAdministratorRole,
    } = loadProxyServerSettings(process.env);
    launcher = startLauncher(resolveLauncherSettings(process.env, options), {
      demoTableNames,
      loadDemoData: (url) => loadDemoData({ url }),
      startProxy: async (proxyOptions) => {
        const server = await startProxyServer({
          listenHost: proxyOptions.host,
          listenPort: proxyOptions.port,
          upstreamHost: proxyOptions.upstreamHost,
          upstreamPort: proxyOptions.upstreamPort,
          answerQuestion: proxyAnswerQuestion(
            proxyOptions.metadataStore,
            proxyOptions.upstreamHost,
            proxyOptions.upstreamPort,
            qdrant,
          ),
          settings,
          queryLog: proxyOptions.queryLog,
          auditTrail: proxyOptions.metadataStore.auditTrail,
          // `/* nl#2 remember */;` keeps a confirmed reading, as under `nlq proxy`; a plain pick keeps nothing.
          readingConfirmations: {
            database: proxyOptions.metadataStore.database,
            administratorRole: webExampleAdministratorRole,
          },
          logger: consoleLogger,
          closeGraceMilliseconds: shutdownGraceMilliseconds,
          ...(metricsListen === undefined ? {} : { metricsListen }),
          maxConnections,
          maxConcurrentQuestions,
          nativeRelay,
          ...(clientTls === undefined ? {} : { clientTls }),
          tlsHandshakeTimeoutMilliseconds,
          clientLoginTimeoutMilliseconds,
          ...(authQuery === undefined ? {} : { authQuery }),
        });
        if (server.metricsAddress) {
          const { host, port } = server.metricsAddress;
          log(`nlq start: metrics on http://${host}:${port}/metrics, health on http://${host}:${port}/health`);
        }
        return { port: server.address.port, close: () => server.close() };
      },
      indexDemo: indexDemoDatabase,
      model: settings.model,
      environment: process.env,
      webDirectory: defaultWebDirectory(),
      log,
    });
  } catch (error) {
    console.error(`nlq start: ${describe(error)}`);
    return 1;
  }

  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (exitCode: number) => {
      if (stopping) return;
      stopping = true;
      launcher.stop().then(
        () => resolve(exitCode),
        (error: unknown) => {
          console.error(`nlq start: stopping failed: ${describe(error)}`);
          resolve(1);
        },
      );
    };
    const onSignal = (signal: NodeJS.Signals) => {
      if (stopping) {
        console.error(`\n${signal} again: forcing exit.`);
        process.exit(130);
      }
      log(`\n${signal}: stopping (press Ctrl-C again to force)…`);
      stop(0);
    };
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
    process.on("SIGHUP", onSignal);
    launcher.ready.catch((error: unknown) => {
      if (stopping) return;
      console.error(`nlq start: ${describe(error)}`);
      stop(1);
    });
  }).then((exitCode) => {
    log(exitCode === 0 ? "nlq stopped." : "nlq stopped after an error.");
    return exitCode;
  });
}

function describe(error: unknown): string {
  if (NlqError.isInstance(error)) return error.message;
  if (error instanceof Error) return error.stack ?? error.message;
  return String(error);
}
