"use client";

import { memo } from "react";
import type { NlqUIMessage } from "../lib/chat-message";
import { AssistantTurn } from "./assistant-turn";

/** The text the user typed in a message. */
export function textOf(message: NlqUIMessage | undefined): string {
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

export interface UserTurnEntryProps {
  readonly message: NlqUIMessage;
  /** The user stopped this question before any reply came. */
  readonly stoppedUnanswered: boolean;
}

/** A question of the conversation. Memoised: it renders again only when its own message changes. */
export const UserTurnEntry = memo(function UserTurnEntry({ message, stoppedUnanswered }: UserTurnEntryProps) {
  return (
    <div className="turn turn-user">
      <p className="question">{textOf(message)}</p>
      {stoppedUnanswered ? <StoppedMarker /> : null}
    </div>
  );
});

export interface AssistantTurnEntryProps {
  readonly message: NlqUIMessage;
  /** The question this reply answers. */
  readonly asked: string;
  readonly stopped: boolean;
  /** Another question is being answered: no Retry, no asking from this turn. */
  readonly busy: boolean;
  readonly recordedQuestions: readonly string[];
  readonly followUps: readonly string[];
  /** Stable across renders (the conversation's own), so earlier turns are not rendered again. */
  readonly ask: (question: string) => boolean;
  readonly rephrase: (question: string) => void;
}

/**
 * A reply of the conversation. Memoised on its props, all stable for an earlier turn: a streamed chunk of the latest
 * reply, or a key typed in the question box, renders none of the earlier ones again (their messages keep their
 * identity in the chat state).
 */
export const AssistantTurnEntry = memo(function AssistantTurnEntry({
  message,
  asked,
  stopped,
  busy,
  recordedQuestions,
  followUps,
  ask,
  rephrase,
}: AssistantTurnEntryProps) {
  return (
    <AssistantTurn
      message={message}
      stopped={stopped}
      onRetry={busy ? undefined : () => ask(asked)}
      onRephrase={() => rephrase(asked)}
      recordedQuestions={recordedQuestions}
      followUps={followUps}
      {...(busy ? {} : { onAsk: ask })}
    />
  );
});
