"use client";

import { useChat } from "@ai-sdk/react";
import { DefaultChatTransport } from "ai";
import { type FormEvent, type KeyboardEvent, useEffect, useMemo, useRef, useState } from "react";
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
import { AssistantTurn } from "./assistant-turn";
import { ErrorView } from "./error-view";
import { SuggestionChips } from "./suggestion-chips";

/** The server's default `NLQ_MAX_QUESTION_LENGTH` (the page passes the configured one). */
const defaultMaximumLength = 4_000;
const count = new Intl.NumberFormat("en-US");

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
  recordedQuestions = [],
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

  useEffect(() => {
    for (const message of messages) {
      for (const part of message.parts) {
        if (part.type === "data-thread" && threadRef.current !== part.data.id) {
          threadRef.current = part.data.id;
          onThread?.(part.data);
        }
      }
    }
  }, [messages, onThread]);
  const [question, setQuestion] = useState("");
  const [stopped, setStopped] = useState<ReadonlySet<string>>(new Set());
  const [transportFailed, setTransportFailed] = useState(false);
  /** The server refused the request itself (400 too long, 403, 500 configuration): its typed error. */
  const [refusal, setRefusal] = useState<ErrorData | undefined>();
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const endRef = useRef<HTMLDivElement>(null);
  const lastAsked = useRef("");
  const busy = status === "submitted" || status === "streaming";
  const tooLong = question.trim().length > maxQuestionLength;
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
    setQuestion((current) => (current.trim() === "" ? lastAsked.current : current));
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
      if (pending) setQuestion(pending);
    } catch {
      // No session storage: nothing to restore.
    }
    inputRef.current?.focus();
  }, [role]);

  useEffect(() => {
    if (messages.length > 0) endRef.current?.scrollIntoView({ behavior: "smooth", block: "end" });
  }, [messages]);

  function ask(text: string) {
    const trimmed = text.trim();
    if (trimmed === "" || busy) return;
    if (trimmed.length > maxQuestionLength) {
      inputRef.current?.focus();
      return;
    }
    if (error) clearError();
    setTransportFailed(false);
    setRefusal(undefined);
    lastAsked.current = trimmed;
    void sendMessage({ text: trimmed });
    setQuestion("");
    inputRef.current?.focus();
  }

  function rephrase(text: string) {
    setQuestion(text);
    inputRef.current?.focus();
  }

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
        inputRef.current?.focus();
      }
    }
    document.addEventListener("keydown", onShortcut);
    return () => document.removeEventListener("keydown", onShortcut);
  }, []);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    ask(question);
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      ask(question);
    }
  }

  return (
    <div className="chat">
      <section className="conversation" aria-label="Conversation">
        {messages.length === 0 ? (
          <p className="empty-state">
            Ask a question about the data. nlq writes the SQL, runs it read-only with your database role and shows how
            it got there.
          </p>
        ) : null}
        {messages.map((message, position) => {
          if (message.role === "user") {
            return (
              <div key={message.id} className="turn turn-user">
                <p className="question">{textOf(message)}</p>
                {stopped.has(message.id) && messages[position + 1] === undefined ? <StoppedMarker /> : null}
              </div>
            );
          }
          const asked = textOf(messages[position - 1]);
          const answer = message.parts.find((part) => part.type === "data-answer");
          const followUps =
            position === messages.length - 1 && answer?.type === "data-answer"
              ? followUpQuestions({
                  question: asked,
                  fields: answer.data.fields,
                  rows: answer.data.rows,
                  recordedQuestions,
                  asked: messages.filter((other) => other.role === "user").map(textOf),
                })
              : [];
          return (
            <AssistantTurn
              key={message.id}
              message={message}
              stopped={stopped.has(message.id)}
              onRetry={busy ? undefined : () => ask(asked)}
              onRephrase={() => rephrase(asked)}
              recordedQuestions={recordedQuestions}
              followUps={followUps}
              {...(busy ? {} : { onAsk: ask })}
            />
          );
        })}
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

      {/* Once answers are on the page, the suggestions take one scrolling row: the answers get the screen. */}
      <form className={messages.length > 0 ? "composer composer-compact" : "composer"} onSubmit={onSubmit}>
        <SuggestionChips suggestions={suggestions} disabled={busy} onPick={ask} />
        <label htmlFor="question" className="composer-label">
          Your question
        </label>
        <div className="composer-row">
          <textarea
            id="question"
            ref={inputRef}
            className="composer-input"
            rows={2}
            value={question}
            placeholder="e.g. how many customers are there?"
            onChange={(event) => setQuestion(event.target.value)}
            onKeyDown={onKeyDown}
            aria-describedby="composer-hint"
          />
          {busy ? (
            <button type="button" className="button button-secondary" onClick={stopAnswer}>
              Stop
            </button>
          ) : (
            <button type="submit" className="button button-primary" disabled={question.trim() === "" || tooLong}>
              Ask
            </button>
          )}
        </div>
        <p id="composer-hint" className="composer-hint">
          <span>Enter to ask, Shift+Enter for a new line, Esc to stop, / to come back here.</span>
          {question.length >= maxQuestionLength * 0.8 ? (
            <span
              className={tooLong ? "composer-count composer-count-over" : "composer-count"}
              data-testid="question-length"
              {...(tooLong ? { role: "status" } : {})}
            >
              {count.format(question.length)} / {count.format(maxQuestionLength)} characters
              {tooLong
                ? `: ${count.format(question.length - maxQuestionLength)} too many, shorten the question to ask it`
                : ""}
            </span>
          ) : null}
        </p>
      </form>
    </div>
  );
}

function textOf(message: NlqUIMessage | undefined): string {
  return (message?.parts ?? []).map((part) => (part.type === "text" ? part.text : "")).join("");
}

/** Shown under a question or reply the user stopped. */
export function StoppedMarker() {
  return (
    <p className="stopped" role="status">
      Stopped
    </p>
  );
}
