import { readFileSync } from "node:fs";
import path from "node:path";
import { Command } from "commander";
import { commandCatalog } from "../../apps/cli/src/cli/command-catalog";

/** The flags of every `nlq` command, keyed by its words (`ask`, `demo load`, `bench presets`; `` for `nlq` itself). */
export type CommandFlags = ReadonlyMap<string, ReadonlySet<string>>;

/** An invocation of a program found in a quoted command line: `nlq`'s words and flags, or a script and its flags. */
export type Invocation =
  | { readonly program: "nlq"; readonly words: readonly string[]; readonly flags: readonly string[] }
  | { readonly program: "script"; readonly script: string; readonly flags: readonly string[] };

function flagsOf(command: Command): Set<string> {
  const flags = new Set(["--help", "-h"]);
  for (const option of command.options) {
    if (option.long) flags.add(option.long);
    if (option.short) flags.add(option.short);
  }
  return flags;
}

/** The flags of every `nlq` command, from the commander definitions the commands register (`apps/cli/src/cli/`). */
export async function nlqCommandFlags(): Promise<CommandFlags> {
  const program = new Command().version("0", "-V, --version");
  for (const command of commandCatalog) await command.register(program);
  const flags = new Map<string, Set<string>>([["", flagsOf(program)]]);
  const visit = (command: Command, words: string[]) => {
    flags.set(words.join(" "), flagsOf(command));
    for (const sub of command.commands) visit(sub, [...words, sub.name()]);
  };
  for (const command of program.commands) visit(command, [command.name()]);
  return flags;
}

/**
 * The options a script declares with `node:util`'s `parseArgs` (`name: { type: … }`), as flags, or undefined when the
 * file does not exist.
 */
export function scriptFlags(root: string, script: string): Set<string> | undefined {
  let text: string;
  try {
    text = readFileSync(path.join(root, script), "utf8");
  } catch {
    return undefined;
  }
  const flags = new Set(["--help"]);
  for (const match of text.matchAll(/(?:"([\w-]+)"|\b([\w-]+))\s*:\s*\{\s*type\s*:/g)) {
    flags.add(`--${match[1] ?? match[2]}`);
  }
  for (const match of text.matchAll(/["'`](--[a-z][\w-]*)/g)) flags.add(match[1] as string);
  return flags;
}

/** Splits a shell line into words, keeping quoted strings together, and stops at a comment. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let current = "";
  let quote: string | undefined;
  let inWord = false;
  for (let index = 0; index < line.length; index += 1) {
    const character = line[index] as string;
    if (quote) {
      if (character === quote) quote = undefined;
      else current += character;
      continue;
    }
    if (character === "'" || character === '"') {
      quote = character;
      inWord = true;
      continue;
    }
    if (/\s/.test(character)) {
      if (inWord) words.push(current);
      current = "";
      inWord = false;
      continue;
    }
    if (character === "#" && !inWord) break;
    if ("|;&()".includes(character)) {
      if (inWord) words.push(current);
      words.push(character);
      current = "";
      inWord = false;
      continue;
    }
    current += character;
    inWord = true;
  }
  if (inWord) words.push(current);
  return words;
}

/** `--limit` of `--limit=10` or `[--limit`; undefined for words that are not flags. */
function flagName(word: string): string | undefined {
  const match = /^\[?(--?[A-Za-z][\w-]*)/.exec(word);
  return match ? match[1] : undefined;
}

/** The package.json scripts that run a file of the repository (`tsx bench/proxy/run-proxy-benchmark.ts`). */
export function npmScriptFiles(root: string): Map<string, string> {
  const scripts: Record<string, string> = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).scripts;
  const files = new Map<string, string>();
  for (const [name, command] of Object.entries(scripts)) {
    const match = /^(?:tsx|node)\s+(\S+\.(?:ts|mts|mjs|js))/.exec(command);
    if (match) files.set(name, match[1] as string);
  }
  return files;
}

/**
 * The invocations of `nlq` and of the repository's scripts in one quoted command line: `nlq …`, `npx nlq …`,
 * `node apps/cli/bin/nlq.mjs …`, `npx tsx apps/cli/src/cli/main.ts …` (nlq from
 * its source), `npm run nlq -- …`, `npx tsx <file> …`, `node <file> …` and `npm run <script> -- …`
 * whose script runs a file. Other programs (psql, curl, docker) are left out: their flags are theirs.
 */
export function invocationsIn(line: string, npmScripts: ReadonlyMap<string, string>): Invocation[] {
  const invocations: Invocation[] = [];
  const words = shellWords(line);
  let index = 0;
  while (index < words.length) {
    const segment: string[] = [];
    while (index < words.length && !"|;&()".includes(words[index] as string)) segment.push(words[index++] as string);
    index += 1;
    while (segment.length > 0 && /^[A-Z_][A-Z0-9_]*=/.test(segment[0] as string)) segment.shift();
    const [first, second, third] = segment;
    let rest: string[] | undefined;
    let script: string | undefined;
    if (first === "nlq") rest = segment.slice(1);
    else if (first === "npx" && second === "nlq") rest = segment.slice(2);
    else if (first === "node" && second?.endsWith("apps/cli/bin/nlq.mjs")) rest = segment.slice(2);
    else if (first === "npm" && second === "run") {
      const named = segment.slice(2).filter((word) => word !== "-s" && word !== "--silent");
      const separator = named.indexOf("--");
      const flags = separator < 0 ? [] : named.slice(separator + 1);
      if (named[0] === "nlq") rest = flags;
      else if (named[0] !== undefined && npmScripts.has(named[0])) {
        script = npmScripts.get(named[0]);
        rest = flags;
      }
    } else if (first === "npx" && second === "tsx" && third?.endsWith("apps/cli/src/cli/main.ts"))
      rest = segment.slice(3);
    else if (first === "npx" && second === "tsx" && third !== undefined) {
      script = third;
      rest = segment.slice(3);
    } else if (first === "node" && second !== undefined && /\.(m?js|ts)$/.test(second)) {
      script = second;
      rest = segment.slice(2);
    }
    if (rest === undefined) continue;
    // `nlq eval: --limit must be …` (an error message), `nlq's answer`: prose about nlq, not a command line.
    const next = rest[0];
    if (script === undefined && next !== undefined && !next.startsWith("-") && !/^[a-z][a-z-]*$/.test(next)) continue;
    const flags = rest.map(flagName).filter((flag): flag is string => flag !== undefined);
    if (script !== undefined) {
      invocations.push({ program: "script", script, flags });
      continue;
    }
    const commandWords: string[] = [];
    for (const word of rest) {
      if (!/^[a-z][a-z-]*$/.test(word)) break;
      commandWords.push(word);
    }
    invocations.push({ program: "nlq", words: commandWords, flags });
  }
  return invocations;
}

/**
 * The `nlq` command an invocation's words name: the longest prefix of its words that is a command (`bench presets`
 * of `bench presets --url`, `ask` of `ask how many`), or undefined when even its first word is none.
 */
export function commandNamed(words: readonly string[], commands: CommandFlags): string | undefined {
  for (let length = Math.min(words.length, 2); length >= 0; length -= 1) {
    const name = words.slice(0, length).join(" ");
    if (commands.has(name)) return length === 0 && words.length > 0 ? undefined : name;
  }
  return undefined;
}
