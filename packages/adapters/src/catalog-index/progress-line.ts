/** What a progress display needs: counts and the time since the start. */
export interface ProgressState {
  readonly done: number;
  readonly total: number;
  readonly elapsedMilliseconds: number;
  /** Short label of the current item. */
  readonly label?: string;
}

function formatDuration(milliseconds: number): string {
  const seconds = Math.max(0, Math.round(milliseconds / 1000));
  const minutes = Math.floor(seconds / 60);
  return minutes > 0 ? `${minutes}m${String(seconds % 60).padStart(2, "0")}s` : `${seconds}s`;
}

/**
 * Remaining time extrapolated from the average so far. Undefined until enough items are done for the average to
 * mean something (3, or 1% of the total if more): the first items also carry start-up work (connections, the
 * embedder, the value index), and extrapolating from them alone overestimates wildly.
 */
export function estimateRemainingMilliseconds(state: ProgressState): number | undefined {
  if (state.total <= state.done) return 0;
  if (state.done < Math.max(3, Math.ceil(state.total / 100))) return undefined;
  return (state.elapsedMilliseconds / state.done) * (state.total - state.done);
}

/** `[#####.....]  52/100  52%  ETA 12s  schema.table`, fitted to `width` characters (a TTY line). */
export function formatProgressBar(state: ProgressState, width = 80): string {
  const fraction = state.total > 0 ? Math.min(1, state.done / state.total) : 1;
  const barWidth = 20;
  const filled = Math.round(fraction * barWidth);
  const remaining = estimateRemainingMilliseconds(state);
  const eta = remaining === undefined ? "ETA --" : `ETA ${formatDuration(remaining)}`;
  const text = `[${"#".repeat(filled)}${".".repeat(barWidth - filled)}] ${state.done}/${state.total} ${Math.floor(fraction * 100)}% ${eta}${state.label ? ` ${state.label}` : ""}`;
  return text.length > width ? `${text.slice(0, Math.max(0, width - 1))}…` : text;
}

/** A plain progress line for logs (no TTY): `indexed 52/100 tables (52%), ETA 12s: schema.table`. */
export function formatProgressLine(state: ProgressState, noun = "tables"): string {
  const remaining = estimateRemainingMilliseconds(state);
  const percent = state.total > 0 ? Math.floor((state.done / state.total) * 100) : 100;
  const eta = remaining === undefined ? "" : `, ETA ${formatDuration(remaining)}`;
  return `indexed ${state.done}/${state.total} ${noun} (${percent}%${eta})${state.label ? `: ${state.label}` : ""}`;
}
