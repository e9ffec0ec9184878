"use client";

export interface SuggestionChipsProps {
  readonly suggestions: readonly string[];
  readonly disabled: boolean;
  readonly onPick: (question: string) => void;
}

/** Suggested questions as buttons; picking one asks it. */
export function SuggestionChips({ suggestions, disabled, onPick }: SuggestionChipsProps) {
  if (suggestions.length === 0) return null;
  return (
    <ul className="suggestions" aria-label="Suggested questions">
      {suggestions.map((suggestion) => (
        <li key={suggestion}>
          <button type="button" className="chip" disabled={disabled} onClick={() => onPick(suggestion)}>
            {suggestion}
          </button>
        </li>
      ))}
    </ul>
  );
}
