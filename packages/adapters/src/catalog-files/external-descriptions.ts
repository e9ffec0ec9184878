/**
 * Descriptions of tables and columns kept outside the database (BIRD `database_description/*.csv`, defog
 * `<db>.json`), merged into the catalog by `mergeExternalDescriptions`.
 */
export interface ExternalColumnDescription {
  /** Table name as the file spells it (matched case-insensitively). */
  readonly table: string;
  /** Column name as the database spells it (matched case-insensitively). */
  readonly column: string;
  /** The description text to show the model (already combined from the file's fields). */
  readonly description: string;
}

export interface ExternalTableDescription {
  readonly table: string;
  readonly description: string;
}

/** Free text about a whole database (defog's `glossary`): kept as knowledge entries, not as descriptions. */
export interface ExternalGlossary {
  /** The file it came from (its base name), which names the entries' origin (`externalId`). */
  readonly source: string;
  readonly text: string;
}

export interface ExternalDescriptions {
  readonly tables: readonly ExternalTableDescription[];
  readonly columns: readonly ExternalColumnDescription[];
  /** Glossaries found beside the descriptions. Default: none. */
  readonly glossaries?: readonly ExternalGlossary[];
}

export const emptyExternalDescriptions: ExternalDescriptions = { tables: [], columns: [] };

export function combineExternalDescriptions(parts: readonly ExternalDescriptions[]): ExternalDescriptions {
  return {
    tables: parts.flatMap((part) => part.tables),
    columns: parts.flatMap((part) => part.columns),
    glossaries: parts.flatMap((part) => part.glossaries ?? []),
  };
}
