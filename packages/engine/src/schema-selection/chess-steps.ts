import {
  filterColumnOutputSchema,
  filterColumnPrompt,
  schemaSelectionSystemPrompt,
  selectColumnsOutputSchema,
  selectColumnsPrompt,
  selectTablesOutputSchema,
  selectTablesPrompt,
} from "@nlq/prompts";
import pLimit from "p-limit";
import { type Catalog, tableKey } from "../catalog/catalog-types";
import type { StepContext } from "../llm/step-context";
import { unlessDegradableFailure } from "../llm/step-failure";
import { renderSchema } from "../schema/render-schema";
import { CatalogNames } from "./column-selection";

/**
 * filter_column, batched: `batchSize` columns per call of step `filter-column`, the calls running at once (up to
 * `concurrency`, the preset's), so the step costs one model round when its batches fit. Returns the kept
 * `tableKey` → columns; a column the model does not mention is kept (the step only removes what it judged irrelevant),
 * and so is every column of a batch whose call failed.
 */
export async function filterColumns(options: {
  readonly catalog: Catalog;
  readonly context: StepContext;
  readonly batchSize: number;
  /** Calls at once. Default: the question's `settings.concurrency`. */
  readonly concurrency?: number;
}): Promise<Map<string, Set<string>>> {
  const items = options.catalog.tables.flatMap((table) =>
    table.columns.map((column) => ({
      table: tableKey(table),
      column: column.name,
      item: {
        id: `${tableKey(table)}.${column.name}`,
        dataType: column.dataType,
        description: column.comment ?? undefined,
        examples: column.enumValues?.slice(0, 5) ?? column.sampleValues?.slice(0, 3),
      },
    })),
  );
  const batches: Array<typeof items> = [];
  for (let start = 0; start < items.length; start += options.batchSize)
    batches.push(items.slice(start, start + options.batchSize));
  const limit = pLimit(Math.max(1, options.concurrency ?? options.context.settings.concurrency));
  const outputs = await Promise.all(
    batches.map((batch) =>
      limit(() => {
        options.context.throwIfCancelled();
        return unlessDegradableFailure(options.context, () =>
          options.context.runModelStep({
            step: "filter-column",
            schema: filterColumnOutputSchema,
            system: schemaSelectionSystemPrompt,
            prompt: filterColumnPrompt({
              question: options.context.question,
              hint: options.context.hint,
              columns: batch.map((entry) => entry.item),
            }),
          }),
        );
      }),
    ),
  );
  const irrelevant = new Set<string>();
  for (const output of outputs)
    for (const label of output?.columns ?? []) if (!label.relevant) irrelevant.add(label.column.trim().toLowerCase());
  const kept = new Map<string, Set<string>>();
  for (const entry of items) {
    if (
      irrelevant.has(entry.item.id.toLowerCase()) ||
      irrelevant.has(`${entry.table.split(".").at(-1)}.${entry.column}`.toLowerCase())
    )
      continue;
    const columns = kept.get(entry.table) ?? new Set<string>();
    columns.add(entry.column);
    kept.set(entry.table, columns);
  }
  return kept;
}

/**
 * select_tables (step `select-tables`) over the rendered schema: the `tableKey`s the model chose that exist; none when
 * the call failed (the caller keeps the schema it had).
 */
export async function selectTables(options: {
  readonly catalog: Catalog;
  readonly context: StepContext;
}): Promise<Set<string>> {
  const output = await unlessDegradableFailure(options.context, () =>
    options.context.runModelStep({
      step: "select-tables",
      schema: selectTablesOutputSchema,
      system: schemaSelectionSystemPrompt,
      prompt: selectTablesPrompt({
        question: options.context.question,
        hint: options.context.hint,
        schema: renderSchema(options.catalog),
      }),
    }),
  );
  const names = new CatalogNames(options.catalog);
  return new Set((output?.table_names ?? []).flatMap((name) => names.tables(name).map(tableKey)));
}

/**
 * select_columns (step `select-columns`): `tableKey` → chosen columns, only names that exist; none when the call
 * failed (the caller keeps the schema it had).
 */
export async function selectColumns(options: {
  readonly catalog: Catalog;
  readonly context: StepContext;
}): Promise<Map<string, Set<string>>> {
  const output = await unlessDegradableFailure(options.context, () =>
    options.context.runModelStep({
      step: "select-columns",
      schema: selectColumnsOutputSchema,
      system: schemaSelectionSystemPrompt,
      prompt: selectColumnsPrompt({
        question: options.context.question,
        hint: options.context.hint,
        schema: renderSchema(options.catalog),
      }),
    }),
  );
  const names = new CatalogNames(options.catalog);
  const selection = new Map<string, Set<string>>();
  for (const entry of output?.tables ?? []) {
    for (const table of names.tables(entry.table)) {
      const columns = selection.get(tableKey(table)) ?? new Set<string>();
      for (const column of entry.columns) {
        const direct = names.column(table, column) ?? names.column(table, column.split(".").at(-1) ?? column);
        if (direct) columns.add(direct);
      }
      selection.set(tableKey(table), columns);
    }
  }
  return selection;
}
