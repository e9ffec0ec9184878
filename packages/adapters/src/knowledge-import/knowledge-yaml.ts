import { parse, stringify } from "yaml";
import { z } from "zod";
import type { ImportedKnowledgeEntry } from "./imported-knowledge";
import { jsonPath, KnowledgeImportError } from "./knowledge-import-error";

/** The kinds a YAML file of entries holds (confirmed readings are made by answering, not written by hand). */
export const yamlKnowledgeKinds = ["term", "metric", "description", "rule"] as const;

const yamlEntrySchema = z.strictObject({
  kind: z.enum(yamlKnowledgeKinds),
  name: z.string(),
  text: z.string(),
  sql: z.string().optional(),
  references: z.array(z.string()).optional(),
});

const yamlFileSchema = z.strictObject({
  version: z.literal(1).optional(),
  entries: z.array(yamlEntrySchema),
});

/**
 * Reads nlq's YAML file of knowledge entries (docs/knowledge.md):
 *
 * ```yaml
 * version: 1
 * entries:
 *   - kind: metric            # term, metric, description or rule
 *     name: net revenue
 *     text: Order totals minus refunds, in euros.
 *     sql: sum(total_cents - refunded_cents) / 100.0
 *     references: [shop.orders.total_cents, shop.orders.refunded_cents]
 * ```
 *
 * A `description`'s name is the element it describes (`schema.table` or `schema.table.column`) and, without
 * `references`, the element is its reference. Throws `KnowledgeImportError` (the file and the path, `$.entries[2].kind`)
 * for a file that is not YAML, or an entry with a missing, unknown or mistyped field.
 */
export function parseKnowledgeYaml(text: string, file: string): ImportedKnowledgeEntry[] {
  let document: unknown;
  try {
    document = parse(text);
  } catch (error) {
    throw new KnowledgeImportError(file, "$", `not YAML: ${(error as Error).message.split("\n")[0]}`, {
      cause: error,
    });
  }
  const parsed = yamlFileSchema.safeParse(document ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new KnowledgeImportError(file, jsonPath(issue.path), issue.message);
  }
  return parsed.data.entries.map((entry) => ({
    kind: entry.kind,
    name: entry.name,
    text: entry.text,
    ...(entry.sql === undefined ? {} : { sql: entry.sql }),
    references: entry.references ?? (entry.kind === "description" ? [entry.name] : []),
  }));
}

/** An entry as the YAML file keeps it. */
export interface YamlKnowledgeEntry {
  readonly kind: string;
  readonly name: string;
  readonly text: string;
  readonly sql?: string | null;
  readonly references?: readonly string[];
}

/**
 * Writes entries in the format `parseKnowledgeYaml` reads (`nlq knowledge export`): terms, metrics, descriptions and
 * rules, in the order given; `references` left out where it is what the reader assumes (a description of its own
 * element, or none). Other kinds (confirmed readings) are left out.
 */
export function formatKnowledgeYaml(entries: readonly YamlKnowledgeEntry[]): string {
  const kept = entries.filter((entry) => (yamlKnowledgeKinds as readonly string[]).includes(entry.kind));
  const written = kept.map((entry) => {
    const references = entry.references ?? [];
    const implied =
      entry.kind === "description" ? references.length === 1 && references[0] === entry.name : references.length === 0;
    return {
      kind: entry.kind,
      name: entry.name,
      text: entry.text,
      ...(entry.sql ? { sql: entry.sql } : {}),
      ...(implied ? {} : { references: [...references] }),
    };
  });
  return `# nlq knowledge entries (docs/knowledge.md): nlq knowledge import <this file>\n${stringify(
    { version: 1, entries: written },
    { lineWidth: 0 },
  )}`;
}
