"use client";

import { useId, useState } from "react";
import { columnRole, isNumericType } from "../lib/chart-plan";
import type { AnswerField } from "../lib/chat-message";
import { formatValue } from "../lib/format-value";
import { nextSort, type TableSort, visibleRows } from "../lib/table-view";

/** Fewer rows than this need no filter box. */
const filterFrom = 6;

export interface ResultTableProps {
  readonly fields: readonly AnswerField[];
  readonly rows: ReadonlyArray<ReadonlyArray<string | null>>;
  /** True when a cap cut the result. */
  readonly truncated: boolean;
  /** Which cap cut it (`bytes` is shown as "truncated: byte limit"). Default: the row cap. */
  readonly truncatedBy?: "rows" | "bytes";
  /** Rows of the whole result, when counted. */
  readonly totalRows?: number;
}

/**
 * The rows, header from the field names; NULL is shown distinctly; numbers are right-aligned. A header sorts by its
 * column (ascending, descending, the query's order); the filter box keeps the rows holding its text. Both act on the
 * rows loaded in the page, not on the database.
 */
export function ResultTable({ fields, rows, truncated, truncatedBy, totalRows }: ResultTableProps) {
  const [sort, setSort] = useState<TableSort | undefined>();
  const [filter, setFilter] = useState("");
  const filterId = useId();
  const shownRows = visibleRows(fields, rows, { sort, filter });
  // Result columns and rows have no identity besides their position, which never changes for one answer.
  const columns = fields.map((field, position) => ({
    key: `column-${position}`,
    name: field.name,
    position,
    className: isNumericType(field.dataTypeId) ? "numeric" : undefined,
    field,
    role: columnRole(field),
  }));
  return (
    <div className="result">
      <p className="result-count">
        <span data-testid="row-count">
          {rows.length} {rows.length === 1 ? "row" : "rows"}
          {totalRows !== undefined && totalRows !== rows.length ? ` of ${totalRows}` : ""}
        </span>
        {filter.trim() !== "" ? (
          <span data-testid="filter-count" role="status">
            {shownRows.length} {shownRows.length === 1 ? "matches" : "match"} the filter
          </span>
        ) : null}
        {truncated ? (
          truncatedBy === "bytes" ? (
            <span className="badge badge-warning" title="The byte limit (NLQ_RESULT_BYTE_LIMIT) cut the result">
              truncated: byte limit
            </span>
          ) : (
            <span className="badge badge-warning" title="The row limit cut the result">
              truncated
            </span>
          )
        ) : null}
      </p>
      {fields.length > 0 && rows.length >= filterFrom ? (
        <div className="table-filter">
          <label htmlFor={filterId}>Filter rows</label>
          <input
            id={filterId}
            type="search"
            value={filter}
            onChange={(event) => setFilter(event.target.value)}
            placeholder="text in any column"
          />
        </div>
      ) : null}
      {fields.length > 0 ? (
        // A group, not a landmark (one per answer); focusable so the keyboard can scroll it.
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
        // biome-ignore lint/a11y/useSemanticElements: rows are not a set of form fields
        <div className="table-scroll" role="group" tabIndex={0} aria-label="Rows">
          <table className="result-table">
            <thead>
              <tr>
                {columns.map((column) => (
                  <th
                    key={column.key}
                    scope="col"
                    className={column.className}
                    {...(sort?.column === column.position ? { "aria-sort": sort.direction } : {})}
                  >
                    <button
                      type="button"
                      className="sort-button"
                      title={`Sort by ${column.name}`}
                      onClick={() => setSort((current) => nextSort(current, column.position))}
                    >
                      {column.name}
                      <span aria-hidden="true" className="sort-mark">
                        {sort?.column === column.position ? (sort.direction === "ascending" ? " ▲" : " ▼") : ""}
                      </span>
                    </button>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {shownRows.map((rowNumber) => (
                <tr key={rowNumber}>
                  {columns.map((column) => {
                    const value = rows[rowNumber]?.[column.position] ?? null;
                    const shown = formatValue(value, column.field, column.role);
                    return (
                      <td
                        key={column.key}
                        className={column.className}
                        {...(shown !== value && value !== null ? { title: value } : {})}
                      >
                        {shown === null ? <span className="null">NULL</span> : shown}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </div>
  );
}
