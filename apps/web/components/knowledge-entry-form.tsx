"use client";

import { useId, useState } from "react";

/** What the form edits: an entry's content, references as one comma-separated line. */
export interface KnowledgeDraft {
  readonly kind: "term" | "metric" | "description" | "rule";
  readonly name: string;
  readonly text: string;
  readonly sql: string;
  readonly references: string;
}

export const emptyKnowledgeDraft: KnowledgeDraft = { kind: "term", name: "", text: "", sql: "", references: "" };

const kindLabels: Readonly<Record<KnowledgeDraft["kind"], string>> = {
  term: "Term (a definition)",
  metric: "Metric (a name and its SQL expression)",
  description: "Description of a table or column",
  rule: "Rule (always applies)",
};

/** The references line as the API takes it: qualified names, trimmed, empties dropped. */
export function referencesOf(line: string): string[] {
  return line
    .split(",")
    .map((reference) => reference.trim())
    .filter((reference) => reference !== "");
}

/** Adds or edits one knowledge entry; the kind is chosen only for a new one. */
export function KnowledgeEntryForm({
  initial,
  submitLabel,
  kindEditable,
  onSubmit,
  onCancel,
}: {
  readonly initial: KnowledgeDraft;
  readonly submitLabel: string;
  readonly kindEditable: boolean;
  readonly onSubmit: (draft: KnowledgeDraft) => Promise<boolean>;
  readonly onCancel?: () => void;
}) {
  const [draft, setDraft] = useState(initial);
  const [busy, setBusy] = useState(false);
  const id = useId();
  const field = (name: string) => `${id}-${name}`;
  return (
    <form
      className="example-edit knowledge-form"
      onSubmit={(event) => {
        event.preventDefault();
        setBusy(true);
        void onSubmit(draft).then((saved) => {
          setBusy(false);
          if (saved && kindEditable) setDraft(emptyKnowledgeDraft);
        });
      }}
    >
      {kindEditable ? (
        <>
          <label htmlFor={field("kind")}>Kind</label>
          <select
            id={field("kind")}
            value={draft.kind}
            onChange={(event) => setDraft({ ...draft, kind: event.target.value as KnowledgeDraft["kind"] })}
          >
            {Object.entries(kindLabels).map(([kind, label]) => (
              <option key={kind} value={kind}>
                {label}
              </option>
            ))}
          </select>
        </>
      ) : null}
      <label htmlFor={field("name")}>Name</label>
      <input
        id={field("name")}
        required
        maxLength={200}
        value={draft.name}
        onChange={(event) => setDraft({ ...draft, name: event.target.value })}
      />
      <label htmlFor={field("text")}>Definition</label>
      <textarea
        id={field("text")}
        required
        rows={3}
        maxLength={4000}
        value={draft.text}
        onChange={(event) => setDraft({ ...draft, text: event.target.value })}
      />
      <label htmlFor={field("sql")}>SQL expression or condition (optional)</label>
      <textarea
        id={field("sql")}
        rows={2}
        maxLength={4000}
        className="sql-code"
        value={draft.sql}
        onChange={(event) => setDraft({ ...draft, sql: event.target.value })}
      />
      <label htmlFor={field("references")}>Tables and columns it names (optional, comma-separated, schema.table)</label>
      <input
        id={field("references")}
        value={draft.references}
        placeholder="public.orders, public.orders.total_cents"
        onChange={(event) => setDraft({ ...draft, references: event.target.value })}
      />
      <div className="example-actions">
        <button type="submit" className="button button-primary" disabled={busy}>
          {submitLabel}
        </button>
        {onCancel ? (
          <button type="button" className="button button-secondary" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}
