"use client";

import { type FormEvent, useEffect, useRef, useState } from "react";

export interface SaveExampleFormProps {
  /** The question as asked: the starting text, which the user may reword to what the SQL really answers. */
  readonly question: string;
  readonly sql: string;
  /** Closes the form (saved or cancelled). */
  readonly onDone: (message?: string) => void;
}

/** "Save as verified example" for edited SQL: the question can be reworded before it is saved with the SQL. */
export function SaveExampleForm({ question, sql, onDone }: SaveExampleFormProps) {
  const [text, setText] = useState(question);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | undefined>();
  const inputRef = useRef<HTMLInputElement>(null);
  useEffect(() => inputRef.current?.select(), []);

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const trimmed = text.trim();
    if (trimmed === "") return;
    setBusy(true);
    const response = await fetch("/api/verified-examples", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ question: trimmed, sql, answered: question }),
    }).catch(() => undefined);
    setBusy(false);
    if (!response?.ok) {
      const body = (await response?.json().catch(() => undefined)) as { error?: { message?: string } } | undefined;
      setFailure(body?.error?.message ?? "The example could not be saved; try again.");
      return;
    }
    onDone(`Saved as a verified example for “${trimmed}”.`);
  }

  return (
    <form className="save-example" onSubmit={(event) => void save(event)}>
      <label htmlFor={`example-question-${sql.length}`}>Question this SQL answers</label>
      <div className="save-example-row">
        <input
          id={`example-question-${sql.length}`}
          ref={inputRef}
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Escape") onDone();
          }}
        />
        <button type="submit" className="button button-primary" disabled={busy || text.trim() === ""}>
          {busy ? "Saving…" : "Save example"}
        </button>
        <button type="button" className="button button-secondary" onClick={() => onDone()}>
          Cancel
        </button>
      </div>
      {failure ? (
        <p className="error-box" role="alert">
          {failure}
        </p>
      ) : null}
    </form>
  );
}
