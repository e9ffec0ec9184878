import { Command } from "commander";
import { commandCatalog, commandToRun, registerListing } from "./command-catalog";
import { nlqVersion } from "./nlq-version";

const program = new Command()
  .name("nlq")
  .description(
    "Natural-language interface to PostgreSQL: start the demo, proxy, ask, load demo data, index, evaluate, benchmark",
  )
  .version(nlqVersion(), "-V, --version", "print the version of nlq")
  .showHelpAfterError();

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

await program.parseAsync(process.argv);
