import { type ImportedKnowledgeEntry, withDistinctNames } from "./imported-knowledge";

/** Longest name nlq gives a glossary line (its first words). */
const glossaryNameLength = 80;

/**
 * The name of a glossary or instruction line: what it defines when it reads `X = …` or `X: …` (`ADV (Average Daily
 * Volume) for a ticker`), else its first words.
 */
export function definitionName(line: string): string {
  const defined = /^(.{1,120}?)\s*(?:=|:)\s+\S/.exec(line)?.[1]?.trim();
  const name = defined !== undefined && defined !== "" ? defined : line;
  if (name.length <= glossaryNameLength) return name;
  const cut = name.slice(0, glossaryNameLength);
  return `${cut.slice(0, cut.lastIndexOf(" ") > 20 ? cut.lastIndexOf(" ") : cut.length)}…`;
}

/**
 * A glossary (defog's `<db>.json` `glossary`, or the lines of `full_instructions`) as knowledge entries: one per
 * non-empty line (a leading `-` or `*` dropped, duplicates once): a `term` for a line that defines something
 * (`NCT (Net Commission Total) = SUM(sbTxCommission) …`, `TAC = Total Active Customers …`), a `rule` otherwise (`sbTicker
 * can be joined to sbDailyPrice on sbTickerId`). The line is the entry's text, whole. They name no schema element
 * (`references` empty: a glossary line is free text), so every role that may see them is shown them. Names are made
 * distinct (`withDistinctNames`).
 */
export function glossaryKnowledge(glossary: string, externalIdPrefix: string): ImportedKnowledgeEntry[] {
  const seen = new Set<string>();
  const entries: ImportedKnowledgeEntry[] = [];
  for (const raw of glossary.split(/\r?\n/)) {
    const line = raw.replace(/^\s*[-*•]\s*/, "").trim();
    if (line === "" || seen.has(line.toLowerCase())) continue;
    seen.add(line.toLowerCase());
    const defines = /^[^=:]{1,120}?\s*(?:=|:)\s+\S/.test(line);
    entries.push({
      kind: defines ? "term" : "rule",
      name: definitionName(line),
      text: line,
      references: [],
      externalId: `${externalIdPrefix}#${entries.length + 1}`,
    });
  }
  return withDistinctNames(entries);
}
