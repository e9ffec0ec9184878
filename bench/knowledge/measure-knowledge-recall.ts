/**
 * Issue 27: how often knowledge retrieval brings a defog instruct_advanced question its own instruction, with no model
 * and no database. Each database's glossary (the distinct lines of its `full_instructions`) becomes knowledge entries
 * as `nlq knowledge import` keeps them (`glossaryKnowledge`); for every question whose `instructions` are lines of that
 * glossary, the entries are retrieved as the live path does (`retrieveKnowledge`: heuristic keywords, the offline
 * embedder, with each limit given: N entries and the short rules beyond them); a question counts when every definition
 * of its instruction lines (`splitDefinitions`, as the import cuts them) is retrieved, and, leniently, when at least one
 * is.
 *
 *   npx tsx bench/knowledge/measure-knowledge-recall.ts [--defog ../shared/data/defog] [--limits 8,12,24] [--misses]
 *
 * `--misses` also prints each question missing a definition with the first limit: which definitions were retrieved, in
 * what place, and what was retrieved instead.
 */
import { parseArgs } from "node:util";
import { glossaryKnowledge, splitDefinitions } from "@nlq/adapters";
import { heuristicKeywords, type KnowledgeEntry, loadSettings, resolveEmbeddingModel } from "@nlq/engine";
import { defaultDefogDirectory } from "@nlq/eval";
import { knowledgeEntryText, retrieveKnowledge } from "../../packages/engine/src/knowledge/retrieve-knowledge";
import { glossaryLines, readInstructQuestions } from "./defog-instructions";

const { values } = parseArgs({
  options: {
    defog: { type: "string", default: defaultDefogDirectory },
    limits: { type: "string", default: "8,12,24" },
    misses: { type: "boolean", default: false },
  },
});
const limits = values.limits.split(",").map(Number);
const glossaries = glossaryLines(values.defog);
const settings = loadSettings({});
const embeddingModel = resolveEmbeddingModel(settings.embeddingModel, settings);
const found = new Map(limits.map((limit) => [limit, 0]));
const foundAny = new Map(limits.map((limit) => [limit, 0]));
let questions = 0;
for (const row of readInstructQuestions(values.defog, "instruct_advanced")) {
  const lines = glossaries.get(row.database);
  if (!lines || !row.instructions) continue;
  // The question's own instruction lines that are glossary lines, as the definitions an import keeps of them.
  const needed = row.instructions
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => lines.includes(line))
    .flatMap(splitDefinitions);
  if (needed.length === 0) continue;
  questions += 1;
  const entries: KnowledgeEntry[] = glossaryKnowledge(lines.join("\n"), `defog:${row.database}`).map(
    (entry, index) => ({
      ...entry,
      references: entry.references ?? [],
      id: `${row.database}-${index}`,
      origin: "catalog-files",
      sharedWithAllRoles: true,
      updatedAt: "2026-12-02T00:00:00.000Z",
    }),
  );
  // Each limit as the live path retrieves with it (`limit` entries, then the short rules beyond it).
  for (const limit of limits) {
    const ranked = await retrieveKnowledge({
      entries,
      question: row.question,
      keywords: heuristicKeywords(row.question),
      embeddingModel,
      limit,
    });
    const ranks = needed.map((line) => ranked.findIndex(({ entry }) => entry.text === line));
    if (ranks.every((rank) => rank >= 0)) found.set(limit, found.get(limit)! + 1);
    if (ranks.some((rank) => rank >= 0)) foundAny.set(limit, foundAny.get(limit)! + 1);
    if (values.misses && limit === limits[0] && ranks.some((rank) => rank < 0)) {
      process.stdout.write(`\n${row.database}: ${row.question}\n`);
      needed.forEach((line, position) => {
        const rank = ranks[position]!;
        process.stdout.write(`  ${rank < 0 ? "not retrieved" : `retrieved ${rank + 1}.`}: ${line}\n`);
      });
      for (const { entry, score } of ranked)
        process.stdout.write(`    ${score.toFixed(2)} ${knowledgeEntryText(entry).slice(0, 110)}\n`);
    }
  }
}
process.stdout.write(`instruct_advanced questions whose instructions are glossary lines: ${questions}\n`);
for (const [limit, count] of found)
  process.stdout.write(
    `retrieved with limit ${limit}: every definition of the instruction ${count}/${questions}, at least one ${foundAny.get(limit)}/${questions}\n`,
  );
