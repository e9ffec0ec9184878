"use client";

import { useEffect, useRef, useState } from "react";
import { searchThreads } from "../lib/thread-search";

/** A thread in the list, as `GET /api/threads` returns it. */
export interface ThreadSummary {
  readonly id: string;
  readonly title: string;
  readonly turns: number;
  /** The questions asked in it, oldest first (the search looks through them too). */
  readonly questions?: readonly string[];
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

/**
 * The user's conversations, most recent first, with rename and delete. Renaming keeps the keyboard in the title box
 * (Enter saves, Escape cancels) and gives the focus back to the Rename button; deleting asks first, with the focus on
 * "Keep" (the safe choice) and Escape to cancel. The search looks through titles and every question of a thread.
 */
export function ThreadList({ threads, currentId, onNew, onOpen, onRename, onDelete }: ThreadListProps) {
  const [editing, setEditing] = useState<string | undefined>();
  const [confirming, setConfirming] = useState<string | undefined>();
  const [title, setTitle] = useState("");
  const [search, setSearch] = useState("");
  const shown = searchThreads(threads, search);
  /** The thread whose Rename or Delete button gets the focus back once its form closes. */
  const [refocus, setRefocus] = useState<{ id: string; action: "rename" | "delete" } | undefined>();
  const listRef = useRef<HTMLUListElement>(null);

  useEffect(() => {
    if (!refocus || editing || confirming) return;
    listRef.current
      ?.querySelector<HTMLButtonElement>(`[data-thread="${CSS.escape(refocus.id)}"][data-action="${refocus.action}"]`)
      ?.focus();
    setRefocus(undefined);
  }, [refocus, editing, confirming]);

  function closeRename(id: string) {
    setEditing(undefined);
    setRefocus({ id, action: "rename" });
  }

  return (
    <nav className="threads" aria-label="Conversations">
      <button type="button" className="button button-secondary threads-new" onClick={onNew}>
        New conversation
      </button>
      {threads.length === 0 ? <p className="threads-empty">Your conversations appear here.</p> : null}
      {threads.length > 0 ? (
        <div className="threads-search">
          <label htmlFor="threads-search" className="visually-hidden">
            Search conversations
          </label>
          <input
            id="threads-search"
            type="search"
            placeholder="Search conversations"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
          />
        </div>
      ) : null}
      {threads.length > 0 && shown.length === 0 ? (
        <p className="threads-empty" role="status">
          No conversation holds “{search.trim()}”.
        </p>
      ) : null}
      <ul className="threads-list" ref={listRef}>
        {shown.map(({ thread, matchedQuestion }) => (
          <li key={thread.id} className={thread.id === currentId ? "thread thread-current" : "thread"}>
            {editing === thread.id ? (
              <form
                className="thread-rename"
                onSubmit={(event) => {
                  event.preventDefault();
                  if (title.trim() !== "" && title.trim() !== thread.title) onRename(thread.id, title.trim());
                  closeRename(thread.id);
                }}
              >
                <label htmlFor={`rename-${thread.id}`} className="visually-hidden">
                  New title
                </label>
                {/* Wrapping lines, as wide as the list: the whole title stays readable while it is edited. */}
                <textarea
                  id={`rename-${thread.id}`}
                  rows={3}
                  value={title}
                  // The user just asked to rename: the title box takes the keyboard.
                  // biome-ignore lint/a11y/noAutofocus: focus follows the user's own Rename click
                  autoFocus
                  onFocus={(event) => event.currentTarget.select()}
                  onChange={(event) => setTitle(event.target.value)}
                  onKeyDown={(event) => {
                    if (event.key === "Escape") {
                      event.preventDefault();
                      event.stopPropagation();
                      closeRename(thread.id);
                    }
                    // A title is one line: Enter saves it.
                    if (event.key === "Enter" && !event.nativeEvent.isComposing) {
                      event.preventDefault();
                      event.currentTarget.form?.requestSubmit();
                    }
                  }}
                />
                <button type="submit" className="button button-secondary">
                  Save
                </button>
                <button type="button" className="button button-secondary" onClick={() => closeRename(thread.id)}>
                  Cancel
                </button>
              </form>
            ) : confirming === thread.id ? (
              <fieldset
                className="thread-confirm"
                // Escape anywhere in the question keeps the thread (and must not stop an answer being written).
                onKeyDown={(event) => {
                  if (event.key === "Escape") {
                    event.preventDefault();
                    event.stopPropagation();
                    setConfirming(undefined);
                    setRefocus({ id: thread.id, action: "delete" });
                  }
                }}
              >
                <legend className="thread-confirm-text">Delete “{thread.title}”?</legend>
                <span className="thread-actions">
                  <button
                    type="button"
                    className="thread-action thread-action-danger"
                    onClick={() => {
                      setConfirming(undefined);
                      onDelete(thread.id);
                    }}
                  >
                    Yes, delete
                  </button>
                  <button
                    type="button"
                    className="thread-action"
                    // The safe choice has the focus: Enter or Space right after Delete keeps the thread.
                    // biome-ignore lint/a11y/noAutofocus: focus follows the user's own Delete click
                    autoFocus
                    onClick={() => {
                      setConfirming(undefined);
                      setRefocus({ id: thread.id, action: "delete" });
                    }}
                  >
                    Keep
                  </button>
                </span>
              </fieldset>
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
                {matchedQuestion === undefined ? null : (
                  <p className="thread-match">
                    <span className="visually-hidden">Matching question: </span>“{matchedQuestion}”
                  </p>
                )}
                <span className="thread-actions">
                  <button
                    type="button"
                    className="thread-action"
                    data-thread={thread.id}
                    data-action="rename"
                    aria-label={`Rename “${thread.title}”`}
                    onClick={() => {
                      setTitle(thread.title);
                      setConfirming(undefined);
                      setEditing(thread.id);
                    }}
                  >
                    Rename
                  </button>
                  <button
                    type="button"
                    className="thread-action"
                    data-thread={thread.id}
                    data-action="delete"
                    aria-label={`Delete “${thread.title}”`}
                    onClick={() => {
                      setEditing(undefined);
                      setConfirming(thread.id);
                    }}
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
