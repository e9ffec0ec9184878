/** Longest slug of a question kept in a file name (in characters, before the extension). */
const maximumSlugLength = 60;

/**
 * The name of an exported file, from the question it answers: `nlq-<slug>.<extension>`, the slug the question's
 * letters and digits in lower case joined by `-` (accents dropped, other scripts kept), at most 60 characters cut at
 * a word. `nlq-result.<extension>` when the question has none (or there is no question: edited SQL).
 */
export function exportFileName(question: string | undefined, extension: "png" | "csv"): string {
  const words = (question ?? "")
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== "");
  let slug = "";
  for (const word of words) {
    const next = slug === "" ? word : `${slug}-${word}`;
    if (next.length > maximumSlugLength) break;
    slug = next;
  }
  if (slug === "" && words.length > 0) slug = words[0]!.slice(0, maximumSlugLength);
  return `nlq-${slug || "result"}.${extension}`;
}
