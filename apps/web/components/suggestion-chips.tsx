"use client";

export interface SuggestionChipsProps {
  readonly suggestions: readonly string[];
  readonly disabled: boolean;
  readonly onPick: (question: string) => void;
  /** The list's accessible name (default "Suggested questions"). */
  readonly label?: string;
}

/**
 * Suggested questions as buttons; picking one asks it. While a question runs they are aria-disabled, not disabled:
 * they stay focusable, so the keyboard can still scroll their row on a narrow screen.
 */
export function SuggestionChips({
  suggestions,
  disabled,
  onPick,
  label = "Suggested questions",
}: SuggestionChipsProps) {
  if (suggestions.length === 0) return null;
  return (
    <ul className="suggestions" aria-label={label}>
      {suggestions.map((suggestion) => (
        <li key={suggestion}>
          <button
            type="button"
            className="chip"
            aria-disabled={disabled}
            onClick={() => {
              if (!disabled) onPick(suggestion);
            }}
          >
            {suggestion}
          </button>
        </li>
      ))}
    </ul>
  );
}
