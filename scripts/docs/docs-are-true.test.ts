import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type CommandFlags,
  commandNamed,
  invocationsIn,
  nlqCommandFlags,
  npmScriptFiles,
  scriptFlags,
} from "./command-line-flags";
import { documentationFiles, headingAnchors, quotedCommands, relativeLinks } from "./markdown-documents";
import { variablesNamedIn, variablesReadByCode } from "./variables-read-by-code";

// The documentation against the code it describes (issue 31): the configuration reference against the variables the
// code reads, every relative link and anchor against the files, every flag against the commands that define it.
const root = path.resolve(import.meta.dirname, "../..");
const documents = documentationFiles(root);
const documentAt = (file: string) => documents.find((document) => document.path === file)!;
/** The guides other engineers put their docs on (docs/README.md lists them); each must exist under this name. */
const guides = [
  "proxy",
  "web",
  "mcp",
  "cli",
  "large-databases",
  "models",
  "configuration",
  "operations",
  "security",
  "evaluation",
  "knowledge",
  "deployment",
].map((name) => `docs/${name}.md`);
/** Pages describing today's nlq; the decision notes are dated records and may name what has changed since. */
const currentPages = documents.filter((document) => !document.path.startsWith("docs/decisions/"));

describe("the configuration reference", () => {
  const read = variablesReadByCode(root);
  const listed = variablesNamedIn(documentAt("docs/configuration.md").text);

  it("lists every NLQ_* variable the code reads", () => {
    const missing = [...read].filter(([name]) => !listed.has(name)).map(([name, file]) => `${name} (${file})`);
    expect(missing, "add these to docs/configuration.md").toEqual([]);
  });

  it("lists no variable the code does not read, and no page names one", () => {
    const unread = currentPages.flatMap((document) =>
      [...variablesNamedIn(document.text)]
        .filter((name) => !read.has(name))
        .map((name) => `${name} in ${document.path}`),
    );
    expect(unread).toEqual([]);
  });
});

describe("links", () => {
  it("every relative link of README.md, BENCHMARKS.md and docs/ resolves, anchors included", () => {
    const broken: string[] = [];
    for (const document of documents) {
      for (const link of relativeLinks(document.text)) {
        const [target = "", anchor] = link.target.split("#");
        const file = target === "" ? document.path : path.join(path.dirname(document.path), decodeURI(target));
        const where = `${document.path}:${link.line} → ${link.target}`;
        if (!existsSync(path.join(root, file))) {
          broken.push(`${where} (no such file)`);
          continue;
        }
        if (anchor === undefined || anchor === "" || statSync(path.join(root, file)).isDirectory()) continue;
        const linked = documents.find((candidate) => candidate.path === path.normalize(file));
        if (linked && !headingAnchors(linked.text).has(anchor)) broken.push(`${where} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });
});

describe("command-line flags", () => {
  let commands: CommandFlags;
  const npmScripts = npmScriptFiles(root);
  beforeAll(async () => {
    commands = await nlqCommandFlags();
  });

  it("every nlq command and flag the docs quote exists, and every flag of a repository script they run", () => {
    const wrong: string[] = [];
    for (const document of currentPages) {
      for (const quoted of quotedCommands(document.text)) {
        const where = `${document.path}:${quoted.line}`;
        for (const invocation of invocationsIn(quoted.text, npmScripts)) {
          if (invocation.program === "script") {
            if (invocation.flags.length === 0 || invocation.script.startsWith("..")) continue;
            const declared = scriptFlags(root, invocation.script);
            if (!declared) wrong.push(`${where}: ${invocation.script} does not exist`);
            else
              for (const flag of invocation.flags)
                if (!declared.has(flag)) wrong.push(`${where}: ${invocation.script} ${flag}`);
            continue;
          }
          const command = commandNamed(invocation.words, commands);
          if (command === undefined) {
            wrong.push(`${where}: nlq ${invocation.words.join(" ")} is no command`);
            continue;
          }
          const flags = commands.get(command)!;
          for (const flag of invocation.flags) if (!flags.has(flag)) wrong.push(`${where}: nlq ${command} ${flag}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it("a flag named on its own (`--catalog-files`) is one of an nlq command or of a script the same page runs", () => {
    const everyNlqFlag = new Set([...commands.values()].flatMap((flags) => [...flags]));
    const wrong: string[] = [];
    for (const document of currentPages) {
      const quoted = quotedCommands(document.text);
      const pageScriptFlags = new Set(
        quoted
          .flatMap((command) => invocationsIn(command.text, npmScripts))
          .flatMap((invocation) =>
            invocation.program === "script" ? [...(scriptFlags(root, invocation.script) ?? [])] : [],
          ),
      );
      for (const command of quoted) {
        const flag = command.kind === "span" ? /^(--[a-z][\w-]*)/.exec(command.text)?.[1] : undefined;
        if (flag && !everyNlqFlag.has(flag) && !pageScriptFlags.has(flag))
          wrong.push(`${document.path}:${command.line}: ${flag}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe("the guides", () => {
  it("each guide exists under its name, says what it is for and ends with where to go next", () => {
    for (const guide of guides) {
      const text = documentAt(guide)?.text;
      expect(text, guide).toBeDefined();
      const [title, , firstParagraph] = text!.split("\n");
      expect(title, guide).toMatch(/^# /);
      expect(firstParagraph, guide).toMatch(/^This page is for /);
      const sections = text!.match(/^## .+$/gm) ?? [];
      expect(sections.at(-1), guide).toBe("## Where next");
    }
  });

  it("the docs index links every guide", () => {
    const linked = new Set(relativeLinks(documentAt("docs/README.md").text).map((link) => `docs/${link.target}`));
    expect(guides.filter((guide) => !linked.has(guide))).toEqual([]);
  });

  it("README.md stays a page of minutes: at most 250 lines", () => {
    expect(documentAt("README.md").text.trimEnd().split("\n").length).toBeLessThanOrEqual(250);
  });
});
