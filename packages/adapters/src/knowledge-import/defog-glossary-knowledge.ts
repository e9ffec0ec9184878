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
 * The definitions of one glossary line, each whole: defog's `full_instructions` glue several into one line ("CR =
 * customer rank … MoMC = month-over-month change … To get the success rate …, calculate the percentage …. TAC = …"),
 * and an entry that holds four definitions is retrieved for none of them. A line is cut after a sentence's full stop
 * followed by a capital letter, before an abbreviation that is being defined (`MoMC = `, two or more capitals among
 * letters and digits), and before an instruction glued on without a stop (`… each month To get …`, `… amounts If
 * transactions …`: To, If, For, Always, When, Never, Only, Use after a lower-case word); a sentence that points back
 * (This, That, These, They, It) stays with the one before, and so does a part that ends mid-phrase (`To calculate the
 * TSC = …`); a line with none of these stays whole.
 */
export function splitDefinitions(line: string): string[] {
  return line
    .split(
      /(?<=[a-z0-9)'"%`][.!?])\s+(?=[A-Z])(?!(?:This|That|These|They|It)\b)|\s+(?=[A-Z][A-Za-z0-9]*[A-Z][A-Za-z0-9]*(?:\s*\([^()]*\))?\s*=\s)|(?<=[a-z0-9)])\s+(?=(?:To|If|For|Always|When|Never|Only|Use)\s)/,
    )
    .map((part) => part.trim())
    .filter((part) => part !== "")
    .reduce<string[]>((parts, part) => {
      // A part that ends mid-phrase ("To calculate the", before "TSC = Total Sales Count …") belongs to the next one.
      const previous = parts.at(-1);
      if (previous !== undefined && endsMidPhrase.test(previous)) parts[parts.length - 1] = `${previous} ${part}`;
      else parts.push(part);
      return parts;
    }, []);
}

/** A text that stops on a word that cannot end a phrase: an article, a preposition or a conjunction. */
const endsMidPhrase = /\b(?:the|a|an|of|to|for|and|or|in|on|with|by|from|as|at|into|per)$/i;

/** What two copies of one definition share: its words, whatever the case, spacing and closing stop. */
function sameDefinitionKey(definition: string): string {
  return definition
    .toLowerCase()
    .replace(/\s+/g, " ")
    .replace(/[\s.;,!]+$/, "");
}

/**
 * A glossary (defog's `<db>.json` `glossary`, or the lines of `full_instructions`) as knowledge entries: one per
 * definition of each non-empty line (a leading `-` or `*` dropped; `splitDefinitions`; a definition once, however its
 * case, spacing and closing stop differ): a `term` for one that defines something (`NCT (Net Commission Total) = SUM(sbTxCommission) …`, `TAC = Total Active Customers
 * …`), a `rule` otherwise (`sbTicker can be joined to sbDailyPrice on sbTickerId`). They name no schema element
 * (`references` empty: a glossary line is free text), so every role that may see them is shown them. Names are made
 * distinct (`withDistinctNames`).
 */
export function glossaryKnowledge(glossary: string, externalIdPrefix: string): ImportedKnowledgeEntry[] {
  const seen = new Set<string>();
  const entries: ImportedKnowledgeEntry[] = [];
  for (const raw of glossary.split(/\r?\n/)) {
    for (const definition of splitDefinitions(raw.replace(/^\s*[-*•]\s*/, "").trim())) {
      const key = sameDefinitionKey(definition);
      if (seen.has(key)) continue;
      seen.add(key);
      const defines = /^[^=:]{1,120}?\s*(?:=|:)\s+\S/.test(definition);
      entries.push({
        kind: defines ? "term" : "rule",
        name: definitionName(definition),
        text: definition,
        references: [],
        externalId: `${externalIdPrefix}#${entries.length + 1}`,
      });
    }
  }
  return withDistinctNames(entries);
}
