// Runs a command inside this process group and ends the whole group when the launcher that started it
// goes away without stopping it (killed with SIGKILL, crashed): no orphaned web server keeps its port.
// Usage (spawned detached with an IPC channel): node parent-watchdog.mjs <command> [arguments...]
import { spawn } from "node:child_process";

const [command, ...commandArguments] = process.argv.slice(2);
// The signal handlers are in place before the command starts: a SIGTERM that arrives as soon as the command prints
// (the launcher may stop it at once) must reach the command, not end this watchdog with the default action.
let child;

function endGroup(signal) {
  try {
    process.kill(-process.pid, signal);
  } catch {
    child?.kill(signal);
  }
}

// The IPC channel closes when the parent process ends, however it ends.
process.on("disconnect", () => endGroup("SIGTERM"));
for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) {
  process.on(signal, () => child.kill(signal));
}
child = spawn(command, commandArguments, { stdio: "inherit" });
child.on("error", (error) => {
  console.error(`cannot start ${command}: ${error.message}`);
  process.exit(127);
});
child.on("exit", (code, signal) => {
  process.exit(code ?? (signal === null ? 1 : 128 + (signalNumbers[signal] ?? 0)));
});

const signalNumbers = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };
