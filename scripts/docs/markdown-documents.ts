import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** One Markdown file of the documentation, with its path relative to the repository. */
export interface MarkdownDocument {
  readonly path: string;
  readonly text: string;
}

/** A relative link of a document: its target as written and the line it is on. */
export interface RelativeLink {
  readonly target: string;
  readonly line: number;
}

/** A command line quoted in a document: a line of a shell code block, or an inline code span. */
export interface QuotedCommand {
  readonly text: string;
  readonly line: number;
  /** `block`: a line of a fenced shell block (backslash continuations joined); `span`: an inline code span. */
  readonly kind: "block" | "span";
}

/**
 * The documentation the docs test checks: README.md, BENCHMARKS.md and every Markdown file under `docs/`
 * (the guides, `architecture.md` and the decision notes).
 */
export function documentationFiles(root: string): MarkdownDocument[] {
  const files = ["README.md", "BENCHMARKS.md", ...markdownFilesUnder(root, "docs")];
  return files.map((file) => ({ path: file, text: readFileSync(path.join(root, file), "utf8") }));
}

function markdownFilesUnder(root: string, directory: string): string[] {
  return readdirSync(path.join(root, directory), { withFileTypes: true })
    .flatMap((entry) => {
      const relative = path.join(directory, entry.name);
      if (entry.isDirectory()) return markdownFilesUnder(root, relative);
      return entry.name.endsWith(".md") ? [relative] : [];
    })
    .sort();
}

interface Fence {
  readonly marker: string;
  readonly language: string;
}

/** The document's lines, each with the fence it is inside of (undefined outside fenced code), fence lines excluded. */
function linesWithFences(text: string): { line: string; number: number; fence: Fence | undefined }[] {
  const result: { line: string; number: number; fence: Fence | undefined }[] = [];
  let fence: Fence | undefined;
  text.split("\n").forEach((line, index) => {
    const opening = /^\s*(`{3,}|~{3,})\s*([\w-]*)/.exec(line);
    if (opening) {
      const marker = opening[1] as string;
      if (fence === undefined) fence = { marker, language: (opening[2] ?? "").toLowerCase() };
      else if (line.trim().startsWith(fence.marker) && line.trim().replace(/[`~]/g, "") === "") fence = undefined;
      return;
    }
    result.push({ line, number: index + 1, fence });
  });
  return result;
}

/**
 * The text of a heading as GitHub renders it: link syntax, backticks and asterisks dropped, the words kept
 * (underscores stay: inside words they are not emphasis, and the docs use no `_emphasis_` in headings).
 */
function headingText(markdown: string): string {
  return markdown
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[`*]/g, "")
    .trim();
}

/** GitHub's anchor of a heading (github-slugger): lower case, punctuation dropped, spaces as hyphens. */
export function headingSlug(heading: string): string {
  return headingText(heading)
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** Every anchor a document's headings make, numbered as GitHub numbers repeated ones (`name`, `name-1`, …). */
export function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { line, fence } of linesWithFences(text)) {
    const heading = fence === undefined ? /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line) : null;
    if (!heading) continue;
    const slug = headingSlug(heading[1] as string);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** Text outside inline code spans (where a `](…)` is literal text, not a link). */
function withoutCodeSpans(line: string): string {
  return line.replace(/(`+)(?:(?!\1).)+\1/g, (span) => " ".repeat(span.length));
}

/** Links of a document to files of the repository (`[text](path#anchor)`), outside code; URLs with a scheme are left out. */
export function relativeLinks(text: string): RelativeLink[] {
  const links: RelativeLink[] = [];
  for (const { line, number, fence } of linesWithFences(text)) {
    if (fence !== undefined) continue;
    for (const match of withoutCodeSpans(line).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      const target = match[1] as string;
      if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) links.push({ target, line: number });
    }
  }
  return links;
}

const shellLanguages = new Set(["", "sh", "bash", "shell", "console", "zsh"]);

/**
 * The command lines a document quotes: each line of a shell code block (continuations joined) and each inline code
 * span outside code blocks.
 */
export function quotedCommands(text: string): QuotedCommand[] {
  const commands: QuotedCommand[] = [];
  let pending: { text: string; line: number } | undefined;
  for (const { line, number, fence } of linesWithFences(text)) {
    if (fence !== undefined) {
      if (!shellLanguages.has(fence.language)) continue;
      const continued = pending ? `${pending.text} ${line.trim()}` : line;
      const start = pending?.line ?? number;
      if (/\\\s*$/.test(continued)) {
        pending = { text: continued.replace(/\\\s*$/, ""), line: start };
        continue;
      }
      pending = undefined;
      commands.push({ text: continued, line: start, kind: "block" });
      continue;
    }
    for (const match of line.matchAll(/(`+)((?:(?!\1).)+)\1/g)) {
      commands.push({ text: (match[2] as string).trim(), line: number, kind: "span" });
    }
  }
  return commands;
}
