import type { ConfirmedReading } from "@nlq/engine";
import { type KnowledgeEditor, KnowledgeStore } from "./knowledge-store";
import type { MetadataDatabase } from "./metadata-database";
import type { KnowledgeEntryRow } from "./schema/knowledge";
import type { VerifiedExampleRow } from "./schema/verified-examples";
import { VerifiedExampleStore } from "./verified-example-store";

export interface ConfirmReadingOptions {
  readonly database: MetadataDatabase;
  /** `host:port/database` of the target database. */
  readonly dataSource: string;
  /**
   * Who confirms: the asking role and whether it is an administrator (`roleAuthority`). An administrator's
   * confirmation is for every role; anyone else's for itself.
   */
  readonly editor: KnowledgeEditor;
  /** The question the readings answered. */
  readonly question: string;
  /** The chosen reading's SQL, as it ran for the user (`answerWithInterpretation`). */
  readonly sql: string;
  /** The phrase, the chosen reading and the alternatives it was chosen over. */
  readonly reading: ConfirmedReading;
  /** How many readings the user was offered (the chosen one included). */
  readonly readingsOffered: number;
  /**
   * The entry's text. Default: `"name" means singer.stage_name, not singer.name` from the reading's labels.
   */
  readonly text?: string;
  /** The web turn the confirmation was made on (a thumbs-down there does not retract a confirmation). Default: none. */
  readonly turnId?: string;
}

/** What a confirmation stored. */
export interface ConfirmedReadingRecords {
  readonly entry: KnowledgeEntryRow;
  readonly example: VerifiedExampleRow;
}

/** "picked from 3 readings by alice": the provenance both records carry. */
export function pickedProvenance(readingsOffered: number, role: string): string {
  const count = Math.max(1, Math.floor(readingsOffered));
  return `picked from ${count} reading${count === 1 ? "" : "s"} by ${role}`;
}

/** `"name" means singer.stage_name, not singer.name`. */
export function confirmedReadingText(reading: ConfirmedReading): string {
  const others = reading.alternatives.map((alternative) => alternative.label);
  return `"${reading.phrase}" means ${reading.chosen.label}${others.length > 0 ? `, not ${others.join(" or ")}` : ""}.`;
}

/**
 * Confirming a reading ("use this from now on": `/* nl#2 remember *\/;`, the web's button, MCP's `choose_reading` with
 * `remember`, `nlq ask --reading 2 --remember`) teaches nlq, and says so
 * (docs/decisions/2026-12-01-readings-knowledge-and-teaching.md, rule 3): in one transaction it stores a `reading`
 * knowledge entry (the phrase, the chosen choice, the alternatives; origin `reading`) and a verified example of the
 * question with the picked SQL (source `picked`), both with the provenance "picked from N readings by <role>" and both
 * the confirming role's — shared with every role when it is an administrator. A later confirmation of the same phrase
 * (or question) by the same role replaces the earlier one. Throws `KnowledgeEntryError` for a reading that cannot be
 * stored (an empty phrase, an unqualified element).
 */
export async function confirmReading(options: ConfirmReadingOptions): Promise<ConfirmedReadingRecords> {
  const provenance = pickedProvenance(options.readingsOffered, options.editor.role);
  return options.database.transaction(async (transaction) => {
    const database = transaction as unknown as MetadataDatabase;
    const { entry } = await new KnowledgeStore(database).save(
      {
        dataSource: options.dataSource,
        kind: "reading",
        name: options.reading.phrase,
        text: options.text ?? confirmedReadingText(options.reading),
        references: options.reading.chosen.elements,
        reading: options.reading,
        origin: "reading",
        provenance,
      },
      options.editor,
    );
    const example = await new VerifiedExampleStore(database).save({
      dataSource: options.dataSource,
      question: options.question,
      sql: options.sql,
      source: "picked",
      verifiedBy: options.editor.role,
      sharedWithAllRoles: options.editor.administrator,
      ...(options.turnId ? { turnId: options.turnId } : {}),
      provenance,
    });
    return { entry, example };
  });
}
