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

export interface ExternalDescriptions {
  readonly tables: readonly ExternalTableDescription[];
  readonly columns: readonly ExternalColumnDescription[];
}

export const emptyExternalDescriptions: ExternalDescriptions = { tables: [], columns: [] };

export function combineExternalDescriptions(parts: readonly ExternalDescriptions[]): ExternalDescriptions {
  return {
    tables: parts.flatMap((part) => part.tables),
    columns: parts.flatMap((part) => part.columns),
  };
}
