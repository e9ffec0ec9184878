"use client";

import { useCallback, useEffect, useState } from "react";

interface VerifiedExample {
  readonly id: string;
  readonly question: string;
  readonly sql: string;
  readonly source: string;
  /** How the pair came to be verified, in words ("accepted by you", "picked from 3 readings by you"). */
  readonly label: string;
  /** Verified by the signed-in role. */
  readonly yours: boolean;
  /** Shared with every role by an administrator. */
  readonly shared: boolean;
  readonly updatedAt: string;
}

/** Lists the verified examples the role may see; it edits and deletes its own, administrators also shared ones. */
export function VerifiedExamplesAdmin({ administrator }: { readonly administrator: boolean }) {
  const [examples, setExamples] = useState<VerifiedExample[] | undefined>();
  const [failure, setFailure] = useState<string | undefined>();
  const [editing, setEditing] = useState<{ id: string; question: string; sql: string } | undefined>();
  /** The example whose Delete was clicked and awaits "Yes, delete" (nothing is removed on the first click). */
  const [confirmingDelete, setConfirmingDelete] = useState<string | undefined>();

  const load = useCallback(async () => {
    const response = await fetch("/api/verified-examples").catch(() => undefined);
    if (!response?.ok) {
      setFailure("The verified examples cannot be loaded.");
      return;
    }
    setExamples(((await response.json()) as { examples: VerifiedExample[] }).examples);
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  async function change(method: "PATCH" | "DELETE", id: string, body?: unknown) {
    setFailure(undefined);
    const response = await fetch(`/api/verified-examples/${encodeURIComponent(id)}`, {
      method,
      ...(body === undefined ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
    }).catch(() => undefined);
    if (!response?.ok) {
      const message = ((await response?.json().catch(() => undefined)) as { error?: { message?: string } } | undefined)
        ?.error?.message;
      setFailure(message ?? "The change was not saved.");
      return;
    }
    setEditing(undefined);
    await load();
  }

  return (
    <section className="examples" aria-labelledby="examples-title">
      <h2 id="examples-title">Verified examples</h2>
      <p className="sign-in-note">
        Question–SQL pairs you accepted or corrected, and those an administrator shared with every role (each shown only
        when your role may read what its SQL uses). Similar questions on this database get them as worked examples.
        {administrator ? " As an administrator, what you verify is shared with every role." : ""}
      </p>
      {failure ? (
        <p className="error-box" role="alert">
          {failure}
        </p>
      ) : null}
      {examples === undefined ? <p role="status">Loading…</p> : null}
      {examples?.length === 0 ? <p>No verified examples yet: give an answer a thumbs up.</p> : null}
      <ul className="examples-list">
        {examples?.map((example) => (
          <li key={example.id} className="example">
            {editing?.id === example.id ? (
              <form
                className="example-edit"
                onSubmit={(event) => {
                  event.preventDefault();
                  void change("PATCH", example.id, { question: editing.question, sql: editing.sql });
                }}
              >
                <label htmlFor={`question-${example.id}`}>Question</label>
                <input
                  id={`question-${example.id}`}
                  value={editing.question}
                  onChange={(event) => setEditing({ ...editing, question: event.target.value })}
                />
                <label htmlFor={`sql-${example.id}`}>SQL</label>
                <textarea
                  id={`sql-${example.id}`}
                  rows={5}
                  className="sql-code"
                  value={editing.sql}
                  onChange={(event) => setEditing({ ...editing, sql: event.target.value })}
                />
                <div className="example-actions">
                  <button type="submit" className="button button-primary">
                    Save
                  </button>
                  <button type="button" className="button button-secondary" onClick={() => setEditing(undefined)}>
                    Cancel
                  </button>
                </div>
              </form>
            ) : (
              <>
                <p className="example-question">{example.question}</p>
                <pre className="sql-code example-sql">{example.sql}</pre>
                <p className="example-meta">
                  {example.label}
                  {example.shared ? (example.yours ? ", shared with every role" : ", shared by an administrator") : ""}
                </p>
                {administrator || example.yours ? (
                  <div className="example-actions">
                    <button
                      type="button"
                      className="button button-secondary"
                      aria-label={`Edit “${example.question}”`}
                      onClick={() => setEditing({ id: example.id, question: example.question, sql: example.sql })}
                    >
                      Edit
                    </button>
                    {confirmingDelete === example.id ? (
                      <DeleteConfirmation
                        question={example.question}
                        onDelete={() => {
                          setConfirmingDelete(undefined);
                          void change("DELETE", example.id);
                        }}
                        onKeep={() => setConfirmingDelete(undefined)}
                      />
                    ) : (
                      <button
                        type="button"
                        className="button button-secondary"
                        aria-label={`Delete “${example.question}”`}
                        onClick={() => setConfirmingDelete(example.id)}
                      >
                        Delete
                      </button>
                    )}
                  </div>
                ) : null}
              </>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * The second step of deleting an example: "Delete this example for good?" with "Yes, delete" and "Keep it". Focus
 * goes to "Keep it" (the safe answer), and Escape keeps the example.
 */
function DeleteConfirmation({
  question,
  onDelete,
  onKeep,
}: {
  readonly question: string;
  readonly onDelete: () => void;
  readonly onKeep: () => void;
}) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a short inline question, not a form
    <span
      className="example-confirm"
      role="group"
      aria-label={`Delete “${question}”?`}
      onKeyDown={(event) => {
        if (event.key === "Escape") onKeep();
      }}
    >
      <span>Delete this example for good? Similar questions stop getting it.</span>
      <button type="button" className="button button-danger" onClick={onDelete}>
        Yes, delete
      </button>
      {/* biome-ignore lint/a11y/noAutofocus: focus follows the user's own Delete click, onto the safe answer */}
      <button type="button" className="button button-secondary" autoFocus onClick={onKeep}>
        Keep it
      </button>
    </span>
  );
}
