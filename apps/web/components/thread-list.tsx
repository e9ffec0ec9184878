"use client";

import { useState } from "react";

/** A thread in the list, as `GET /api/threads` returns it. */
export interface ThreadSummary {
  readonly id: string;
  readonly title: string;
  readonly turns: number;
  readonly updatedAt: string;
}

export interface ThreadListProps {
  readonly threads: readonly ThreadSummary[];
  readonly currentId: string | undefined;
  onNew(): void;
  onOpen(id: string): void;
  onRename(id: string, title: string): void;
  onDelete(id: string): void;
}

/** The user's conversations, most recent first, with rename and delete. */
export function ThreadList({ threads, currentId, onNew, onOpen, onRename, onDelete }: ThreadListProps) {
  const [editing, setEditing] = useState<string | undefined>();
  const [title, setTitle] = useState("");
  return (
    <nav className="threads" aria-label="Conversations">
      <button type="button" className="button button-secondary threads-new" onClick={onNew}>
        New conversation
      </button>
      {threads.length === 0 ? <p className="threads-empty">Your conversations appear here.</p> : null}
      <ul className="threads-list">
        {threads.map((thread) => (
          <li key={thread.id} className={thread.id === currentId ? "thread thread-current" : "thread"}>
            {editing === thread.id ? (
              <form
                className="thread-rename"
                onSubmit={(event) => {
                  event.preventDefault();
                  if (title.trim() !== "") onRename(thread.id, title.trim());
                  setEditing(undefined);
                }}
              >
                <label htmlFor={`rename-${thread.id}`} className="visually-hidden">
                  New title
                </label>
                <input id={`rename-${thread.id}`} value={title} onChange={(event) => setTitle(event.target.value)} />
                <button type="submit" className="button button-secondary">
                  Save
                </button>
              </form>
            ) : (
              <>
                <button
                  type="button"
                  className="thread-open"
                  aria-current={thread.id === currentId ? "true" : undefined}
                  onClick={() => onOpen(thread.id)}
                >
                  {thread.title}
                </button>
                <span className="thread-actions">
                  <button
                    type="button"
                    className="thread-action"
                    aria-label={`Rename “${thread.title}”`}
                    onClick={() => {
                      setTitle(thread.title);
                      setEditing(thread.id);
                    }}
                  >
                    Rename
                  </button>
                  <button
                    type="button"
                    className="thread-action"
                    aria-label={`Delete “${thread.title}”`}
                    onClick={() => onDelete(thread.id)}
                  >
                    Delete
                  </button>
                </span>
              </>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}
