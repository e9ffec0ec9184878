import { splitWordPieces } from "../../embedding/word-pieces";

/** Shortest word a compound is split into. */
const shortestPart = 3;
/** Most words one compound is split into. */
const mostParts = 3;

/**
 * Splits run-together identifier words (`baseprice`, `roomname`, `bedtype`, `hometown`) into words the same catalog
 * spells separately elsewhere (`base_price`, `room`, `type`, `home_town`), so `What is the base price of each room?`
 * meets the `baseprice` column. The vocabulary is the catalog's own identifier word pieces of at least three letters;
 * a split uses the fewest parts (at most three, each a vocabulary word other than the whole), the longest first part
 * on ties. Pure; build once per catalog.
 */
export class CompoundIdentifierSplitter {
  readonly #vocabulary: ReadonlySet<string>;
  readonly #cache = new Map<string, readonly string[]>();

  constructor(vocabulary: Iterable<string>) {
    this.#vocabulary = new Set([...vocabulary].filter((word) => word.length >= shortestPart));
  }

  /** A splitter whose vocabulary is the letter-only word pieces of the given identifiers. */
  static fromNames(names: Iterable<string>): CompoundIdentifierSplitter {
    const words = new Set<string>();
    for (const name of names) for (const piece of splitWordPieces(name)) if (/^\p{L}+$/u.test(piece)) words.add(piece);
    return new CompoundIdentifierSplitter(words);
  }

  /** The parts of a lower-case word piece, or an empty list when it is not a compound of vocabulary words. */
  split(piece: string): readonly string[] {
    const cached = this.#cache.get(piece);
    if (cached) return cached;
    const parts = piece.length < 2 * shortestPart ? [] : (this.#parts(piece, 0, mostParts) ?? []);
    const result = parts.length > 1 ? parts : [];
    this.#cache.set(piece, result);
    return result;
  }

  /** Fewest vocabulary words spelling `piece` from `start`, at most `budget` of them; undefined when none. */
  #parts(piece: string, start: number, budget: number): string[] | undefined {
    let best: string[] | undefined;
    for (let end = piece.length; end >= start + shortestPart; end--) {
      const word = piece.slice(start, end);
      if (word === piece || !this.#vocabulary.has(word)) continue;
      if (end === piece.length) return [word];
      if (budget <= 1) continue;
      const rest = this.#parts(piece, end, budget - 1);
      if (rest && (!best || rest.length + 1 < best.length)) best = [word, ...rest];
    }
    return best;
  }
}
