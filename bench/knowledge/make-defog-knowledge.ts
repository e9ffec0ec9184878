/**
 * Issue 27 item 5: each defog instruct database's definitions as a YAML file of knowledge entries, ready for
 * `nlq knowledge import`: the distinct lines of its instruct_advanced questions' `full_instructions`, one entry each —
 * a `term` for a line that defines something (`TAC = Total Active Customers …`), a `rule` otherwise — by the same
 * rule `nlq index --catalog-files` applies to a defog glossary (`glossaryKnowledge`).
 *
 *   npx tsx bench/knowledge/make-defog-knowledge.ts --out-dir /tmp/defog-knowledge [--defog ../shared/data/defog]
 *
 * Writes `<out-dir>/<db>.yaml` per database and prints how many entries each holds.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { formatKnowledgeYaml, glossaryKnowledge } from "@nlq/adapters";
import { defaultDefogDirectory } from "@nlq/eval";
import { glossaryLines } from "./defog-instructions";

const { values } = parseArgs({
  options: { "out-dir": { type: "string" }, defog: { type: "string", default: defaultDefogDirectory } },
});
const directory = values["out-dir"];
if (directory === undefined) throw new Error("--out-dir <directory> is required");
mkdirSync(directory, { recursive: true });
for (const [database, lines] of glossaryLines(values.defog)) {
  const entries = glossaryKnowledge(lines.join("\n"), `defog:${database}`);
  const file = join(directory, `${database}.yaml`);
  writeFileSync(file, formatKnowledgeYaml(entries));
  process.stdout.write(`${file}: ${entries.length} entries from ${lines.length} distinct lines\n`);
}
