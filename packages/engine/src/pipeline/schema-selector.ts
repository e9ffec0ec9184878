import type { Catalog } from "../catalog/catalog-types";
import type { StepContext } from "../llm/step-context";

export interface SelectSchemaOptions {
  /** Everything the asking role may read (already privilege-filtered). */
  readonly catalog: Catalog;
  readonly context: StepContext;
}

export interface SelectedSchema {
  /** The subset shown to the generators; keep primary- and foreign-key columns. */
  readonly catalog: Catalog;
  /** Extra context for the prompt (retrieved values, descriptions), appended to the user's hint. */
  readonly hint?: string;
  /**
   * The question's keywords, when the selector extracted them (CHESS extract_keywords): knowledge entries are then
   * retrieved with them as well as with the question. Default: none (the question's own words).
   */
  readonly keywords?: readonly string[];
}

/**
 * A schema-subsetting stage inserted between the catalog and generation (CHESS IR + SS, CRUSH).
 * It emits its own intermediate events (`keywords-end`, `values-end`); the pipeline emits `schema-end` with the
 * size of the returned subset.
 */
export interface SchemaSelector {
  readonly name: string;
  select(options: SelectSchemaOptions): Promise<SelectedSchema>;
}
