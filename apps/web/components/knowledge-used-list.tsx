"use client";

import type { KnowledgeUsedData } from "../lib/chat-message";

/**
 * Which knowledge entries reached the answer's prompts (`Answer.knowledgeUsed`): each by kind and name, with a link to
 * the knowledge page where they are defined. Nothing when the answer used none.
 */
export function KnowledgeUsedList({ used }: { readonly used: readonly KnowledgeUsedData[] | undefined }) {
  if (!used || used.length === 0) return null;
  return (
    <div className="answer-meta" data-testid="knowledge-used">
      <span className="badge badge-quiet">
        used {used.length === 1 ? "this definition" : `these ${used.length} definitions`}:
      </span>
      <ul className="knowledge-used" aria-label="Knowledge used">
        {used.map((entry) => (
          <li key={entry.id} className="badge">
            {entry.kind} <strong>{entry.name}</strong>
          </li>
        ))}
      </ul>
      <a href="/knowledge">see the knowledge page</a>
    </div>
  );
}
