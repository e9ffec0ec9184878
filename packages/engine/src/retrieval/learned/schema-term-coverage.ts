import { stopWords } from "../../embedding/word-pieces";

/** Share of a question's schema-matching terms found in each database and in each table (`SchemaTermCoverage`). */
export interface TermCoverage {
  /** Per database id, in [0, 1]: IDF-weighted share of the question's matching terms the database's names contain. */
  readonly database: Float64Array;
  /** Per table id, the same over the table's name and its columns' names. */
  readonly table: Float64Array;
  /** Largest value of `database` (0 when no term matches anything). */
  readonly bestDatabase: number;
  /** Largest value of `table`. */
  readonly bestTable: number;
}

/**
 * Which databases and tables of a catalog contain a question's words, as whole-schema evidence: a question whose
 * words `student`, `course`, `grade` all name something in one database points at that database even when no single
 * column matches well. A term's weight is its inverse document frequency over databases (`name`, found everywhere,
 * counts little); terms that name nothing in the catalog (and stop words) are left out of the share. Pure; build once
 * per catalog.
 */
export class SchemaTermCoverage {
  readonly #databasesOf = new Map<string, number[]>();
  readonly #tablesOf = new Map<string, number[]>();
  readonly #weightOf = new Map<string, number>();

  /**
   * @param databaseTokens per database id, the stemmed tokens of its name, its tables' and its columns' names
   * @param tableTokens per table id, the stemmed tokens of its name and of its columns' names
   */
  constructor(
    readonly databaseTokens: readonly ReadonlySet<string>[],
    readonly tableTokens: readonly ReadonlySet<string>[],
  ) {
    databaseTokens.forEach((tokens, database) => {
      for (const token of tokens) append(this.#databasesOf, token, database);
    });
    tableTokens.forEach((tokens, table) => {
      for (const token of tokens) append(this.#tablesOf, token, table);
    });
    const databases = Math.max(1, databaseTokens.length);
    for (const [token, holders] of this.#databasesOf)
      this.#weightOf.set(token, Math.log(1 + databases / holders.length));
  }

  /** Coverage of every database and table by the question's stemmed `terms`. */
  coverage(terms: readonly string[]): TermCoverage {
    const database = new Float64Array(this.databaseTokens.length);
    const table = new Float64Array(this.tableTokens.length);
    let total = 0;
    for (const term of new Set(terms)) {
      if (stopWords.has(term)) continue;
      const weight = this.#weightOf.get(term);
      if (weight === undefined) continue;
      total += weight;
      for (const holder of this.#databasesOf.get(term) ?? []) database[holder]! += weight;
      for (const holder of this.#tablesOf.get(term) ?? []) table[holder]! += weight;
    }
    let bestDatabase = 0;
    let bestTable = 0;
    if (total > 0) {
      for (let position = 0; position < database.length; position++) {
        database[position]! /= total;
        if (database[position]! > bestDatabase) bestDatabase = database[position]!;
      }
      for (let position = 0; position < table.length; position++) {
        table[position]! /= total;
        if (table[position]! > bestTable) bestTable = table[position]!;
      }
    }
    return { database, table, bestDatabase, bestTable };
  }
}

function append(postings: Map<string, number[]>, token: string, holder: number): void {
  const list = postings.get(token);
  if (list === undefined) postings.set(token, [holder]);
  else list.push(holder);
}
