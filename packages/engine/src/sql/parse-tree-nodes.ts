/**
 * Calls `onNode` with every key and value of a raw parse tree (libpg-query JSON), depth first: each object's entries
 * in order, an entry before what it holds; arrays are walked through. The one walk the SQL checks and the query
 * shape share, each keeping what its node types tell.
 */
export function forEachParseNode(tree: unknown, onNode: (key: string, value: unknown) => void): void {
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (node === null || typeof node !== "object") return;
    for (const [key, value] of Object.entries(node)) {
      onNode(key, value);
      visit(value);
    }
  };
  visit(tree);
}
