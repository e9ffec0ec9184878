import type { Command } from "commander";
import { registerBenchPresetsCommand } from "./bench-presets-command";
import { registerBenchPromptSizeCommand } from "./bench-prompt-size-command";
import { registerBenchRetrievalCommand } from "./bench-retrieval-command";
import { registerBenchSchemaSelectionCommand } from "./bench-schema-selection-command";
import { registerBenchValuesCommand } from "./bench-values-command";

/** `nlq bench …`: benchmarks that print figures (retrieval recall, value index, prompt size, schema selection, presets). */
export function registerBenchCommand(program: Command): void {
  const bench = program.command("bench").description("run a benchmark and print its figures");
  registerBenchRetrievalCommand(bench);
  registerBenchValuesCommand(bench);
  registerBenchPromptSizeCommand(bench);
  registerBenchSchemaSelectionCommand(bench);
  registerBenchPresetsCommand(bench);
}
