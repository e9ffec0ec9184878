/** What the history search needs of a thread: its title and the questions asked in it. */
export interface SearchableThread {
  readonly title: string;
  /** The thread's questions, oldest first (absent from an older server: the title alone is searched). */
  readonly questions?: readonly string[];
}

/** A thread the search kept, with the later question that matched when its title did not. */
export interface ThreadMatch<Thread extends SearchableThread> {
  readonly thread: Thread;
  readonly matchedQuestion?: string;
}

/**
 * The threads whose title or any question holds `search` (case-insensitive, surrounding spaces ignored), in the
 * order given; every thread for an empty search.
 */
export function searchThreads<Thread extends SearchableThread>(
  threads: readonly Thread[],
  search: string,
): ThreadMatch<Thread>[] {
  const needle = search.trim().toLowerCase();
  if (needle === "") return threads.map((thread) => ({ thread }));
  return threads.flatMap((thread): ThreadMatch<Thread>[] => {
    if (thread.title.toLowerCase().includes(needle)) return [{ thread }];
    const matchedQuestion = thread.questions?.find((question) => question.toLowerCase().includes(needle));
    return matchedQuestion === undefined ? [] : [{ thread, matchedQuestion }];
  });
}
