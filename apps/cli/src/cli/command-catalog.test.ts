import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { commandCatalog, commandToRun } from "./command-catalog";

describe("the command catalog", () => {
  it("lists exactly the commands the modules register, with the same arguments", async () => {
    const program = new Command();
    for (const command of commandCatalog) await command.register(program);
    const registered = program.commands.map((command) => ({
      name: command.name(),
      arguments: command.registeredArguments
        .map((argument) => (argument.required ? `<${argument.name()}>` : `[${argument.name()}]`))
        .join(" "),
    }));
    expect(registered).toEqual(commandCatalog.map(({ name, arguments: declared }) => ({ name, arguments: declared })));
  });

  it("finds the command to load from the arguments", () => {
    expect(commandToRun([])).toBe("none");
    expect(commandToRun(["--help"])).toBe("none");
    expect(commandToRun(["-V"])).toBe("none");
    expect(commandToRun(["ask", "how many?"])).toMatchObject({ name: "ask" });
    expect(commandToRun(["help", "index"])).toMatchObject({ name: "index" });
    expect(commandToRun(["bench", "values", "--help"])).toMatchObject({ name: "bench" });
    expect(commandToRun(["asks"])).toBe("unknown");
  });
});
