import { Command } from "commander";
import { registerAskCommand } from "./ask-command";
import { registerBenchCommand } from "./bench-command";
import { registerDemoCommand } from "./demo-command";
import { registerEvalCommand } from "./eval-command";
import { registerIndexCommand } from "./index-command";
import { nlqVersion } from "./nlq-version";
import { registerProxyCommand } from "./proxy-command";
import { registerStartCommand } from "./start-command";

const program = new Command()
  .name("nlq")
  .description(
    "Natural-language interface to PostgreSQL: start the demo, proxy, ask, load demo data, index, evaluate, benchmark",
  )
  .version(nlqVersion(), "-V, --version", "print the version of nlq")
  .showHelpAfterError();

registerStartCommand(program);
registerProxyCommand(program);
registerAskCommand(program);
registerDemoCommand(program);
registerIndexCommand(program);
registerEvalCommand(program);
registerBenchCommand(program);

await program.parseAsync(process.argv);
