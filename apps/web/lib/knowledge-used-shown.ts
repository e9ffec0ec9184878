/**
 * Whether the knowledge an answer used still describes the rows on screen: yes for the answer's own result and for a
 * reading picked under it (that candidate's SQL was written from the same prompts, so the same definitions reached
 * it — as the proxy, MCP and `nlq ask --reading` keep `knowledgeUsed` on a pick); no for SQL the user edited.
 */
export function showsAnswerKnowledge(shown: { readonly edited: boolean; readonly reading?: number }): boolean {
  return !shown.edited || shown.reading !== undefined;
}
