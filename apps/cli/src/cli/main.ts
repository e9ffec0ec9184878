import { Command, type CommanderError } from "commander";
import { commandCatalog, commandToRun, registerListing } from "./command-catalog";
import { nlqVersion } from "./nlq-version";
import { startProcessTracing } from "./process-tracing";
import { USAGE_EXIT_CODE } from "./usage-exit-code";

/** commander's errors that are about the command line itself: they exit with `USAGE_EXIT_CODE`, as the commands' own. */
const usageErrorCodes: ReadonlySet<string> = new Set([
  "commander.unknownOption",
  "commander.unknownCommand",
  "commander.missingArgument",
  "commander.optionMissingArgument",
  "commander.missingMandatoryOptionValue",
  "commander.conflictingOption",
  "commander.excessArguments",
  "commander.invalidArgument",
  "commander.help", // help shown for a missing subcommand (`nlq`, `nlq bench`); `--help` itself exits 0
]);

function exitAfterCommander(error: CommanderError): never {
  process.exit(error.exitCode !== 0 && usageErrorCodes.has(error.code) ? USAGE_EXIT_CODE : error.exitCode);
}

const program = new Command()
  .name("nlq")
  .description(
    "Natural-language interface to PostgreSQL: start the demo, proxy, ask, audit log, load demo data, index, evaluate, benchmark",
  )
  .version(nlqVersion(), "-V, --version", "print the version of nlq")
  .showHelpAfterError()
  // Set before the commands are registered: each inherits it.
  .exitOverride(exitAfterCommander);

// Only the command being run is loaded (its module imports the engine, the AI SDK, the parser…): `nlq --help` and
// `nlq --version` list the commands from the catalog without importing any of them.
const command = commandToRun(process.argv.slice(2));
if (command === "none") {
  for (const listed of commandCatalog) registerListing(program, listed);
} else if (command === "unknown") {
  for (const listed of commandCatalog) await listed.register(program);
} else {
  await command.register(program);
}

// OpenTelemetry only when OTEL_EXPORTER_OTLP_ENDPOINT is set (loaded lazily; nothing otherwise).
const tracing = await startProcessTracing(process.env, "nlq", (text) => process.stderr.write(text));
try {
  await program.parseAsync(process.argv);
} finally {
  await tracing?.shutdown().catch(() => undefined);
}
