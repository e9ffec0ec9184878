"use client";

import { useChat } from "@ai-sdk/react";
import { DefaultChatTransport } from "ai";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { ErrorData, NlqUIMessage, ThreadData } from "../lib/chat-message";
import { compactMessagesForRequest } from "../lib/compact-messages";
import { followUpQuestions } from "../lib/follow-up-questions";
import {
  pendingQuestionKey,
  pendingQuestionValue,
  responseError,
  restoredPendingQuestion,
  sessionEnded,
  sessionEndedKey,
} from "../lib/response-error";
import { Composer, type ComposerHandle } from "./composer";
import { AssistantTurnEntry, textOf, UserTurnEntry } from "./conversation-turns";
import { ErrorView } from "./error-view";

/** The server's default `NLQ_MAX_QUESTION_LENGTH` (the page passes the configured one). */
const defaultMaximumLength = 4_000;
/** The follow-ups of every turn but the latest (and no recorded questions): one array, so memoised turns see no change. */
const noFollowUps: readonly string[] = [];
const noRecordedQuestions: readonly string[] = [];

export interface ChatProps {
  /** The signed-in role: a question kept across an ended session is put back only for the role that typed it. */
  readonly role: string;
  /** Questions offered as clickable chips. */
  readonly suggestions: readonly string[];
  /** The stored thread this conversation continues (a reopened one); none for a new conversation. */
  readonly threadId?: string;
  /** The messages of a reopened thread. */
  readonly initialMessages?: NlqUIMessage[];
  /** Called when the server kept the conversation in a thread (the first answer of a new conversation). */
  readonly onThread?: (thread: ThreadData) => void;
  /** Longest question the server accepts: the box counts characters towards it and refuses to send more. */
  readonly maxQuestionLength?: number;
  /** The scripted demo's recorded questions, offered when a question has no recorded answer. */
  readonly recordedQuestions?: readonly string[];
}

/** The conversation: earlier turns stay visible above the composer. */
export function Chat({
  role,
  suggestions,
  threadId,
  initialMessages,
  onThread,
  maxQuestionLength = defaultMaximumLength,
  recordedQuestions = noRecordedQuestions,
}: ChatProps) {
  const threadRef = useRef<string | undefined>(threadId);
  const transport = useMemo(
    () =>
      new DefaultChatTransport<NlqUIMessage>({
        api: "/api/chat",
        prepareSendMessagesRequest: ({ id, messages }) => ({
          body: {
            id,
            messages: compactMessagesForRequest(messages),
            ...(threadRef.current ? { threadId: threadRef.current } : {}),
          },
        }),
      }),
    [],
  );
  const { messages, sendMessage, status, stop, error, clearError, setMessages } = useChat<NlqUIMessage>({
    transport,
    ...(threadId ? { id: threadId } : {}),
    ...(initialMessages ? { messages: initialMessages } : {}),
  });

  // The server names the thread in the reply being written: the latest message, not every earlier one again.
  const latest = messages.at(-1);
  useEffect(() => {
    for (const part of latest?.parts ?? []) {
      if (part.type === "data-thread" && threadRef.current !== part.data.id) {
        threadRef.current = part.data.id;
        onThread?.(part.data);
      }
    }
  }, [latest, onThread]);
  const [stopped, setStopped] = useState<ReadonlySet<string>>(new Set());
  const [transportFailed, setTransportFailed] = useState(false);
  /** The server refused the request itself (400 too long, 403, 500 configuration): its typed error. */
  const [refusal, setRefusal] = useState<ErrorData | undefined>();
  const composerRef = useRef<ComposerHandle>(null);
  const endRef = useRef<HTMLDivElement>(null);
  const lastAsked = useRef("");
  const busy = status === "submitted" || status === "streaming";
  const busyRef = useRef(busy);
  busyRef.current = busy;

  // A request that never reached an answer: the question goes back into the box and the unanswered turn is removed.
  // The page says what happened: the server's refusal in its words (too long, with the limit), an ended session
  // (back to the sign-in form, the question kept for after it), or, when nothing came back, that the server did not
  // answer; never the browser's "Failed to fetch".
  useEffect(() => {
    if (!error) return;
    const refused = responseError(error);
    if (sessionEnded(refused)) {
      try {
        window.sessionStorage.setItem(pendingQuestionKey, pendingQuestionValue(role, lastAsked.current));
        window.sessionStorage.setItem(sessionEndedKey, "1");
      } catch {
        // Storage refused (private mode): the sign-in form still says why it is there.
      }
      window.location.reload();
      return;
    }
    if (refused) setRefusal(refused);
    else setTransportFailed(true);
    composerRef.current?.restoreQuestion(lastAsked.current);
    setMessages((current) => {
      const lastUser = current.findLastIndex((message) => message.role === "user");
      const answered = current
        .slice(lastUser + 1)
        .some((message) => message.parts.some((part) => part.type === "data-answer" || part.type === "data-error"));
      return lastUser >= 0 && !answered ? current.slice(0, lastUser) : current;
    });
    clearError();
  }, [error, clearError, setMessages, role]);

  // The question box has the focus on arrival, with the question asked before the session ended, if any.
  useEffect(() => {
    try {
      const pending = restoredPendingQuestion(window.sessionStorage.getItem(pendingQuestionKey), role);
      window.sessionStorage.removeItem(pendingQuestionKey);
      if (pending) composerRef.current?.setQuestion(pending);
    } catch {
      // No session storage: nothing to restore.
    }
    composerRef.current?.focus();
  }, [role]);

  useEffect(() => {
    if (messages.length > 0) endRef.current?.scrollIntoView({ behavior: "smooth", block: "end" });
  }, [messages]);

  /** Sends a question; false when it was not sent (empty, too long, or another one is being answered). */
  function ask(text: string): boolean {
    const trimmed = text.trim();
    if (trimmed === "" || busyRef.current) return false;
    if (trimmed.length > maxQuestionLength) {
      composerRef.current?.focus();
      return false;
    }
    if (error) clearError();
    setTransportFailed(false);
    setRefusal(undefined);
    lastAsked.current = trimmed;
    void sendMessage({ text: trimmed });
    composerRef.current?.focus();
    return true;
  }
  // One function for the whole conversation, so the memoised turns never see a new one.
  const askRef = useRef(ask);
  askRef.current = ask;
  const stableAsk = useCallback((text: string) => askRef.current(text), []);
  const rephrase = useCallback((text: string) => {
    composerRef.current?.setQuestion(text);
    composerRef.current?.focus();
  }, []);

  function stopAnswer() {
    const last = messages.at(-1);
    if (last) setStopped((current) => new Set(current).add(last.id));
    void stop();
  }

  // Keyboard shortcuts: Escape stops the answer being written; "/" (outside a text field) goes to the question box.
  const stopRef = useRef(stopAnswer);
  stopRef.current = stopAnswer;
  useEffect(() => {
    function onShortcut(event: globalThis.KeyboardEvent) {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.key === "Escape" && busyRef.current) {
        event.preventDefault();
        stopRef.current();
        return;
      }
      const target = event.target as HTMLElement | null;
      const typing =
        target !== null && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));
      if (event.key === "/" && !typing) {
        event.preventDefault();
        composerRef.current?.focus();
      }
    }
    document.addEventListener("keydown", onShortcut);
    return () => document.removeEventListener("keydown", onShortcut);
  }, []);

  // The latest answer's follow-ups: computed when the messages change, not on every render.
  const followUps = useMemo(() => {
    const last = messages.at(-1);
    const answer = last?.role === "assistant" ? last.parts.find((part) => part.type === "data-answer") : undefined;
    if (answer?.type !== "data-answer") return noFollowUps;
    return followUpQuestions({
      question: textOf(messages.at(-2)),
      fields: answer.data.fields,
      rows: answer.data.rows,
      recordedQuestions,
      asked: messages.filter((other) => other.role === "user").map(textOf),
    });
  }, [messages, recordedQuestions]);

  return (
    <div className="chat">
      <section className="conversation" aria-label="Conversation">
        {messages.length === 0 ? (
          <p className="empty-state">
            Ask a question about the data. nlq writes the SQL, runs it read-only with your database role and shows how
            it got there.
          </p>
        ) : null}
        {messages.map((message, position) =>
          message.role === "user" ? (
            <UserTurnEntry
              key={message.id}
              message={message}
              stoppedUnanswered={stopped.has(message.id) && messages[position + 1] === undefined}
            />
          ) : (
            <AssistantTurnEntry
              key={message.id}
              message={message}
              asked={textOf(messages[position - 1])}
              stopped={stopped.has(message.id)}
              // An answered earlier turn offers nothing to ask while busy: it keeps `false` and is not rendered
              // again when a question starts or ends (an error's Retry, or the latest turn, follows the state).
              busy={busy && (position === messages.length - 1 || !answered(message))}
              recordedQuestions={recordedQuestions}
              followUps={position === messages.length - 1 ? followUps : noFollowUps}
              ask={stableAsk}
              rephrase={rephrase}
            />
          ),
        )}
        {status === "submitted" ? (
          <p className="waiting" role="status">
            Sending the question…
          </p>
        ) : null}
        {refusal ? <ErrorView error={refusal} /> : null}
        {transportFailed ? (
          <div className="error-box" role="alert">
            <p className="error-title">The question could not be sent</p>
            <p>
              The server did not answer. Your question is still in the box below: ask again when the connection is back.
            </p>
          </div>
        ) : null}
        <div ref={endRef} />
      </section>

      <Composer
        handle={composerRef}
        suggestions={suggestions}
        busy={busy}
        compact={messages.length > 0}
        maxQuestionLength={maxQuestionLength}
        onAsk={stableAsk}
        onStop={stopAnswer}
      />
    </div>
  );
}

/** Whether a reply holds an answer (its offers to ask again live only in the latest turn). */
function answered(message: NlqUIMessage): boolean {
  return message.parts.some((part) => part.type === "data-answer");
}
