"use client";

import { useCallback, useEffect, useState } from "react";
import { emptyKnowledgeDraft, KnowledgeEntryForm, referencesOf } from "./knowledge-entry-form";
import { type KnowledgeChangeRequest, type KnowledgeEntryData, KnowledgeEntryItem } from "./knowledge-entry-item";

interface KnowledgeList {
  readonly entries: KnowledgeEntryData[];
  readonly suggestions: KnowledgeEntryData[];
}

async function failureOf(response: Response | undefined, fallback: string): Promise<string> {
  const body = (await response?.json().catch(() => undefined)) as { error?: { message?: string } } | undefined;
  return body?.error?.message ?? fallback;
}

/**
 * The knowledge page: the entries the role may see (its own and administrators' shared ones, each only when the role
 * may read every table and column it names), and the suggestions waiting. An administrator adds, edits and removes
 * entries and accepts or rejects suggestions; anyone else proposes entries, kept as suggestions.
 */
export function KnowledgeAdmin({ administrator }: { readonly administrator: boolean }) {
  const [knowledge, setKnowledge] = useState<KnowledgeList | undefined>();
  const [failure, setFailure] = useState<string | undefined>();
  const [notice, setNotice] = useState<string | undefined>();

  const load = useCallback(async () => {
    const response = await fetch("/api/knowledge").catch(() => undefined);
    if (!response?.ok) {
      setFailure(await failureOf(response, "The knowledge entries cannot be loaded."));
      return;
    }
    setKnowledge((await response.json()) as KnowledgeList);
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  async function change(id: string, request: KnowledgeChangeRequest): Promise<boolean> {
    setFailure(undefined);
    setNotice(undefined);
    const path = `/api/knowledge/${encodeURIComponent(id)}${"path" in request ? `/${request.path}` : ""}`;
    const response = await fetch(path, {
      method: request.method,
      ...("body" in request
        ? { headers: { "content-type": "application/json" }, body: JSON.stringify(request.body) }
        : {}),
    }).catch(() => undefined);
    if (!response?.ok) {
      setFailure(await failureOf(response, "The change was not saved."));
      return false;
    }
    await load();
    return true;
  }

  return (
    <section className="examples" aria-labelledby="knowledge-title">
      <h2 id="knowledge-title">Knowledge</h2>
      <p className="sign-in-note">
        Definitions, metrics, descriptions and rules about this database. Questions get the ones that fit them as
        evidence, and an answer says which it used. You see your own and those an administrator shared, each only when
        your role may read every table and column it names.
        {administrator
          ? " As an administrator, what you add is shared with every role."
          : " What you propose waits for an administrator to accept it."}
      </p>
      {failure ? (
        <p className="error-box" role="alert">
          {failure}
        </p>
      ) : null}
      {notice ? <p role="status">{notice}</p> : null}
      <h3>{administrator ? "Add an entry" : "Propose an entry"}</h3>
      <KnowledgeEntryForm
        initial={emptyKnowledgeDraft}
        submitLabel={administrator ? "Add" : "Propose"}
        kindEditable
        onSubmit={async (draft) => {
          setFailure(undefined);
          setNotice(undefined);
          const response = await fetch("/api/knowledge", {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({
              kind: draft.kind,
              name: draft.name,
              text: draft.text,
              ...(draft.sql.trim() ? { sql: draft.sql } : {}),
              references: referencesOf(draft.references),
            }),
          }).catch(() => undefined);
          if (!response?.ok) {
            setFailure(await failureOf(response, "The entry was not saved."));
            return false;
          }
          const { suggested } = (await response.json()) as { suggested: boolean };
          await load();
          // Said once the list shows it (the form empties itself at the same time).
          setNotice(suggested ? "Proposed: an administrator will accept or reject it." : "Added.");
          return true;
        }}
      />
      {knowledge === undefined && !failure ? <p role="status">Loading…</p> : null}
      {knowledge && knowledge.suggestions.length > 0 ? (
        <>
          <h3>{administrator ? "Suggestions to decide" : "Your suggestions"}</h3>
          <ul className="examples-list" aria-label="Suggestions">
            {knowledge.suggestions.map((entry) => (
              <KnowledgeEntryItem
                key={entry.id}
                entry={entry}
                canEdit={false}
                canDecide={administrator}
                canWithdraw={!administrator && entry.yours}
                onChange={change}
              />
            ))}
          </ul>
        </>
      ) : null}
      <h3>Entries</h3>
      {knowledge?.entries.length === 0 ? <p>No knowledge entries yet.</p> : null}
      <ul className="examples-list" aria-label="Entries">
        {knowledge?.entries.map((entry) => (
          <KnowledgeEntryItem
            key={entry.id}
            entry={entry}
            canEdit={entry.yours || (administrator && entry.shared)}
            canDecide={false}
            onChange={change}
          />
        ))}
      </ul>
    </section>
  );
}
