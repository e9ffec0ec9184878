"use client";

import { type FormEvent, type KeyboardEvent, type Ref, useImperativeHandle, useRef, useState } from "react";
import { SuggestionChips } from "./suggestion-chips";

const count = new Intl.NumberFormat("en-US");

/** What the conversation does with the question box: put text into it (kept or replaced) and give it the focus. */
export interface ComposerHandle {
  /** Replaces the text in the box. */
  setQuestion(text: string): void;
  /** Puts `text` back only when the box is empty (the user may have typed something new meanwhile). */
  restoreQuestion(text: string): void;
  focus(): void;
}

export interface ComposerProps {
  readonly handle: Ref<ComposerHandle>;
  readonly suggestions: readonly string[];
  /** A question is being answered: Stop instead of Ask, chips disabled. */
  readonly busy: boolean;
  /** Answers are on the page: the suggestions take one scrolling row. */
  readonly compact: boolean;
  readonly maxQuestionLength: number;
  /** Asks the question; false when it was not sent (then the text stays in the box). */
  readonly onAsk: (question: string) => boolean;
  readonly onStop: () => void;
}

/**
 * The question box with its suggestions and Ask/Stop button. It owns the text being typed: a key press re-renders
 * the box alone, never the conversation above it (a thread of 50 answers types as fast as an empty one).
 */
export function Composer({ handle, suggestions, busy, compact, maxQuestionLength, onAsk, onStop }: ComposerProps) {
  const [question, setQuestion] = useState("");
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const tooLong = question.trim().length > maxQuestionLength;

  useImperativeHandle(
    handle,
    () => ({
      setQuestion,
      restoreQuestion: (text) => setQuestion((current) => (current.trim() === "" ? text : current)),
      focus: () => inputRef.current?.focus(),
    }),
    [],
  );

  function ask(text: string) {
    if (onAsk(text)) setQuestion("");
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
    // Once answers are on the page, the suggestions take one scrolling row: the answers get the screen.
    <form className={compact ? "composer composer-compact" : "composer"} onSubmit={onSubmit}>
      <SuggestionChips suggestions={suggestions} disabled={busy} onPick={(text) => onAsk(text)} />
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
          <button type="button" className="button button-secondary" onClick={onStop}>
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
  );
}
