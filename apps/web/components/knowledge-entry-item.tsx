"use client";

import { useState } from "react";
import type { KnowledgeChange } from "../lib/knowledge-for-user";
import { type KnowledgeDraft, KnowledgeEntryForm, referencesOf } from "./knowledge-entry-form";

/** One entry as `/api/knowledge` lists it. */
export interface KnowledgeEntryData {
  readonly id: string;
  readonly kind: "term" | "metric" | "description" | "rule" | "reading";
  readonly name: string;
  readonly text: string;
  readonly sql?: string;
  readonly references: readonly string[];
  readonly origin: string;
  readonly yours: boolean;
  readonly shared: boolean;
  readonly suggested: boolean;
  readonly updatedAt: string;
  /** Who proposed a suggestion (shown to administrators only). */
  readonly proposedBy?: string;
}

/** A change to send: the method and body of `/api/knowledge/<id>[/decision]`. */
export type KnowledgeChangeRequest =
  | { readonly method: "PATCH"; readonly body: unknown }
  | { readonly method: "DELETE" }
  | { readonly method: "POST"; readonly path: "decision"; readonly body: unknown };

function authorOf(entry: KnowledgeEntryData): string {
  if (entry.suggested) return entry.yours ? "proposed by you" : `proposed by ${entry.proposedBy ?? "another role"}`;
  if (entry.yours) return entry.shared ? "by you, shared with every role" : "by you";
  return "shared by an administrator";
}

/** One entry: what it says, whose it is, its history on demand, and the changes the role may make to it. */
export function KnowledgeEntryItem({
  entry,
  canEdit,
  canDecide,
  canWithdraw = false,
  onChange,
}: {
  readonly entry: KnowledgeEntryData;
  readonly canEdit: boolean;
  readonly canDecide: boolean;
  /** The proposer takes its own suggestion back. */
  readonly canWithdraw?: boolean;
  readonly onChange: (id: string, change: KnowledgeChangeRequest) => Promise<boolean>;
}) {
  const [editing, setEditing] = useState(false);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const [history, setHistory] = useState<KnowledgeChange[] | undefined>();
  const updated = new Date(entry.updatedAt);

  async function toggleHistory() {
    if (history) {
      setHistory(undefined);
      return;
    }
    const response = await fetch(`/api/knowledge/${encodeURIComponent(entry.id)}/history`).catch(() => undefined);
    setHistory(response?.ok ? ((await response.json()) as { history: KnowledgeChange[] }).history : []);
  }

  if (editing) {
    const initial: KnowledgeDraft = {
      kind: entry.kind === "reading" ? "term" : entry.kind,
      name: entry.name,
      text: entry.text,
      sql: entry.sql ?? "",
      references: entry.references.join(", "),
    };
    return (
      <li className="example knowledge-entry">
        <KnowledgeEntryForm
          initial={initial}
          submitLabel="Save"
          kindEditable={false}
          onCancel={() => setEditing(false)}
          onSubmit={async (draft) => {
            const saved = await onChange(entry.id, {
              method: "PATCH",
              body: { name: draft.name, text: draft.text, sql: draft.sql, references: referencesOf(draft.references) },
            });
            if (saved) setEditing(false);
            return saved;
          }}
        />
      </li>
    );
  }

  return (
    <li className="example knowledge-entry">
      <p className="example-question">
        <span className="knowledge-kind">{entry.kind}</span> {entry.name}
      </p>
      <p>{entry.text}</p>
      {entry.sql ? <pre className="sql-code example-sql">{entry.sql}</pre> : null}
      {entry.references.length > 0 ? (
        <p className="example-meta">
          Names:{" "}
          {entry.references.map((reference) => (
            <code key={reference}>{reference} </code>
          ))}
        </p>
      ) : null}
      <p className="example-meta">
        {entry.origin}, {authorOf(entry)}, updated <time dateTime={entry.updatedAt}>{updated.toLocaleString()}</time>
      </p>
      <div className="example-actions">
        <button
          type="button"
          className="button button-secondary"
          aria-expanded={history !== undefined}
          aria-label={`History of “${entry.name}”`}
          onClick={() => void toggleHistory()}
        >
          History
        </button>
        {canDecide ? (
          <>
            <button
              type="button"
              className="button button-primary"
              aria-label={`Accept “${entry.name}”`}
              onClick={() =>
                void onChange(entry.id, { method: "POST", path: "decision", body: { decision: "accept" } })
              }
            >
              Accept
            </button>
            <button
              type="button"
              className="button button-secondary"
              aria-label={`Reject “${entry.name}”`}
              onClick={() =>
                void onChange(entry.id, { method: "POST", path: "decision", body: { decision: "reject" } })
              }
            >
              Reject
            </button>
          </>
        ) : null}
        {canWithdraw ? (
          <button
            type="button"
            className="button button-secondary"
            aria-label={`Withdraw “${entry.name}”`}
            onClick={() => void onChange(entry.id, { method: "POST", path: "decision", body: { decision: "reject" } })}
          >
            Withdraw
          </button>
        ) : null}
        {canEdit ? (
          <>
            <button
              type="button"
              className="button button-secondary"
              aria-label={`Edit “${entry.name}”`}
              onClick={() => setEditing(true)}
            >
              Edit
            </button>
            <button
              type="button"
              className="button button-secondary"
              aria-label={`Delete “${entry.name}”`}
              onClick={() => setConfirmingDelete(true)}
            >
              Delete
            </button>
          </>
        ) : null}
      </div>
      {confirmingDelete ? (
        <div className="knowledge-confirm" role="alertdialog" aria-label={`Delete “${entry.name}”?`}>
          <p>Delete “{entry.name}”? Answers stop using it; its history is kept.</p>
          <div className="example-actions">
            <button
              type="button"
              className="button button-primary"
              onClick={() => void onChange(entry.id, { method: "DELETE" }).then(() => setConfirmingDelete(false))}
            >
              Yes, delete
            </button>
            <button type="button" className="button button-secondary" onClick={() => setConfirmingDelete(false)}>
              Keep it
            </button>
          </div>
        </div>
      ) : null}
      {history ? (
        <ol className="knowledge-history" aria-label={`Changes of “${entry.name}”`}>
          {history.length === 0 ? <li>No history to show.</li> : null}
          {history.map((change) => (
            <li key={`${change.changedAt}-${change.action}`}>
              <time dateTime={change.changedAt}>{new Date(change.changedAt).toLocaleString()}</time> {change.action} by{" "}
              {change.changedBy}: {change.name} — {change.text}
              {change.sql ? <code> {change.sql}</code> : null}
            </li>
          ))}
        </ol>
      ) : null}
    </li>
  );
}
