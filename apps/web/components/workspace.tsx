"use client";

import { useCallback, useEffect, useState } from "react";
import type { NlqUIMessage, ThreadData } from "../lib/chat-message";
import { messagesOfThread, type StoredTurn } from "../lib/thread-messages";
import { Chat } from "./chat";
import { ThreadList, type ThreadSummary } from "./thread-list";

export interface WorkspaceProps {
  /** The signed-in role. */
  readonly role: string;
  readonly suggestions: readonly string[];
  /** False when there is no metadata store: no history, just the chat. */
  readonly history: boolean;
  /** Longest question the server accepts (`NLQ_MAX_QUESTION_LENGTH`). */
  readonly maxQuestionLength?: number;
  /** The scripted demo's recorded questions (empty with a language model). */
  readonly recordedQuestions?: readonly string[];
  /** The thread the address names (`?thread=`): opened before the chat appears, so the chat starts only once. */
  readonly initialThreadId?: string;
}

interface OpenThread {
  readonly key: string;
  readonly id?: string;
  readonly messages?: NlqUIMessage[];
  /** Being loaded: no chat yet (one mounted now would take the kept question and then be replaced). */
  readonly opening?: boolean;
}

/** The chat with the user's threads beside it: new, reopen (also from `?thread=` after a reload), rename, delete. */
export function Workspace({
  role,
  suggestions,
  history,
  maxQuestionLength,
  recordedQuestions,
  initialThreadId,
}: WorkspaceProps) {
  const [threads, setThreads] = useState<ThreadSummary[]>([]);
  const [open, setOpen] = useState<OpenThread>(
    history && initialThreadId ? { key: `opening-${initialThreadId}`, opening: true } : { key: "new" },
  );
  /** The thread the chat is in: the reopened one, or the one the server made for a new conversation. */
  const [currentId, setCurrentId] = useState<string | undefined>();
  const [loadFailure, setLoadFailure] = useState<string | undefined>();

  const refresh = useCallback(async () => {
    if (!history) return;
    const response = await fetch("/api/threads").catch(() => undefined);
    if (response?.ok) setThreads(((await response.json()) as { threads: ThreadSummary[] }).threads);
  }, [history]);

  const reopen = useCallback(async (id: string) => {
    setLoadFailure(undefined);
    const response = await fetch(`/api/threads/${encodeURIComponent(id)}`).catch(() => undefined);
    if (!response?.ok) {
      setLoadFailure("That conversation cannot be opened (it was deleted, or belongs to another role).");
      setOpen({ key: `new-${Date.now()}` });
      setCurrentId(undefined);
      window.history.replaceState(null, "", "/");
      return;
    }
    const body = (await response.json()) as { thread: ThreadData; turns: StoredTurn[] };
    setOpen({ key: body.thread.id, id: body.thread.id, messages: messagesOfThread(body.turns) });
    setCurrentId(body.thread.id);
    window.history.replaceState(null, "", `/?thread=${encodeURIComponent(body.thread.id)}`);
  }, []);

  useEffect(() => {
    void refresh();
    const id = new URLSearchParams(window.location.search).get("thread");
    if (id && history) void reopen(id);
  }, [history, refresh, reopen]);

  const onThread = useCallback(
    (thread: ThreadData) => {
      setCurrentId(thread.id);
      window.history.replaceState(null, "", `/?thread=${encodeURIComponent(thread.id)}`);
      void refresh();
    },
    [refresh],
  );

  function startNew() {
    setLoadFailure(undefined);
    setOpen({ key: `new-${Date.now()}` });
    setCurrentId(undefined);
    window.history.replaceState(null, "", "/");
  }

  async function rename(id: string, title: string) {
    await fetch(`/api/threads/${encodeURIComponent(id)}`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ title }),
    });
    await refresh();
  }

  async function remove(id: string) {
    await fetch(`/api/threads/${encodeURIComponent(id)}`, { method: "DELETE" });
    if (currentId === id) startNew();
    await refresh();
  }

  return (
    <div className={history ? "workspace" : "workspace workspace-single"}>
      {history ? (
        <ThreadList
          threads={threads}
          currentId={currentId}
          onNew={startNew}
          onOpen={(id) => void reopen(id)}
          onRename={(id, title) => void rename(id, title)}
          onDelete={(id) => void remove(id)}
        />
      ) : null}
      <div className="workspace-chat">
        {loadFailure ? (
          <p className="error-box" role="alert">
            {loadFailure}
          </p>
        ) : null}
        {open.opening ? (
          <p className="waiting" role="status">
            Opening the conversation…
          </p>
        ) : (
          <Chat
            key={open.key}
            role={role}
            suggestions={suggestions}
            {...(maxQuestionLength ? { maxQuestionLength } : {})}
            {...(recordedQuestions ? { recordedQuestions } : {})}
            {...(open.id ? { threadId: open.id } : {})}
            {...(open.messages ? { initialMessages: open.messages } : {})}
            onThread={onThread}
          />
        )}
      </div>
    </div>
  );
}
