"use client";

import { useChat } from "@ai-sdk/react";
import { DefaultChatTransport } from "ai";
import { type FormEvent, type KeyboardEvent, useEffect, useMemo, useRef, useState } from "react";
import type { NlqUIMessage, ThreadData } from "../lib/chat-message";
import { compactMessagesForRequest } from "../lib/compact-messages";
import { AssistantTurn } from "./assistant-turn";
import { SuggestionChips } from "./suggestion-chips";

export interface ChatProps {
  /** Questions offered as clickable chips. */
  readonly suggestions: readonly string[];
  /** The stored thread this conversation continues (a reopened one); none for a new conversation. */
  readonly threadId?: string;
  /** The messages of a reopened thread. */
  readonly initialMessages?: NlqUIMessage[];
  /** Called when the server kept the conversation in a thread (the first answer of a new conversation). */
  readonly onThread?: (thread: ThreadData) => void;
}

/** The conversation: earlier turns stay visible above the composer. */
export function Chat({ suggestions, threadId, initialMessages, onThread }: ChatProps) {
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
  const { messages, sendMessage, status, stop, error, clearError } = useChat<NlqUIMessage>({
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
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const endRef = useRef<HTMLDivElement>(null);
  const busy = status === "submitted" || status === "streaming";

  useEffect(() => {
    if (messages.length > 0) endRef.current?.scrollIntoView({ behavior: "smooth", block: "end" });
  }, [messages]);

  function ask(text: string) {
    const trimmed = text.trim();
    if (trimmed === "" || busy) return;
    if (error) clearError();
    void sendMessage({ text: trimmed });
    setQuestion("");
    inputRef.current?.focus();
  }

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
        {messages.map((message) =>
          message.role === "user" ? (
            <div key={message.id} className="turn turn-user">
              <p className="question">
                {message.parts.map((part) => (part.type === "text" ? part.text : "")).join("")}
              </p>
            </div>
          ) : (
            <AssistantTurn key={message.id} message={message} />
          ),
        )}
        {status === "submitted" ? (
          <p className="waiting" role="status">
            Sending the question…
          </p>
        ) : null}
        {error ? (
          <div className="error-box" role="alert">
            <p className="error-title">The chat request failed</p>
            <p>{error.message}</p>
          </div>
        ) : null}
        <div ref={endRef} />
      </section>

      <form className="composer" onSubmit={onSubmit}>
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
            <button type="button" className="button button-secondary" onClick={() => void stop()}>
              Stop
            </button>
          ) : (
            <button type="submit" className="button button-primary" disabled={question.trim() === ""}>
              Ask
            </button>
          )}
        </div>
        <p id="composer-hint" className="composer-hint">
          Enter to ask, Shift+Enter for a new line.
        </p>
      </form>
    </div>
  );
}
