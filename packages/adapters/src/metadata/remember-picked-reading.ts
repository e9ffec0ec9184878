import { type Answer, type Interpretation, InterpretationNotFoundError } from "@nlq/engine";
import { confirmedReadingText, confirmReading, pickedProvenance } from "./confirm-reading";
import type { KnowledgeEditor } from "./knowledge-store";
import type { MetadataDatabase } from "./metadata-database";
import { VerifiedExampleStore } from "./verified-example-store";

export interface RememberPickedReadingOptions {
  readonly database: MetadataDatabase;
  /** `host:port/database` of the target database. */
  readonly dataSource: string;
  /** Who confirms, as PostgreSQL says on the asker's own session (`roleAuthority`, `administratorSql`). */
  readonly editor: KnowledgeEditor;
  /**
   * The answer with the picked reading (`answerWithInterpretation`'s): its SQL ran for the user. Only the question,
   * the SQL and each interpretation's number, `chosen` flag and reading are read (the web app keeps no more).
   */
  readonly answer: Pick<Answer, "question" | "sql"> & {
    readonly interpretations?: readonly Pick<Interpretation, "number" | "chosen" | "reading">[];
  };
}

/** What a confirmation stored, and the sentence every surface shows for it. */
export interface RememberedPick {
  /** `reading`: a knowledge entry and a verified example; `example`: the verified example alone (no phrase in doubt). */
  readonly kind: "reading" | "example";
  /** The knowledge entry's id, for a reading. */
  readonly entryId?: string;
  /** Who it now applies to: the confirming role alone, or every role (an administrator's). */
  readonly scope: "you" | "every role";
  /** `remembered for you: "name" means singer.performer_name, not singer.artist_name; …`. */
  readonly message: string;
}

/**
 * "Use this from now on" on every surface that answers through the engine (`/* nl#2 remember *\/;`, MCP's
 * `choose_reading` with `remember`, `nlq ask --reading 2 --remember`): the picked interpretation of `answer` is
 * confirmed (docs/decisions/2026-12-01-readings-knowledge-and-teaching.md, rule 3). When it came from a reading of a
 * phrase in doubt (`Interpretation.reading`), `confirmReading` stores the `reading` knowledge entry and the verified
 * example; when its candidates merely disagreed (no phrase to name), the verified example alone, with the same
 * provenance. An administrator's confirmation is for every role. Throws `InterpretationNotFoundError` when `answer`
 * holds no picked interpretation.
 */
export async function rememberPickedReading(options: RememberPickedReadingOptions): Promise<RememberedPick> {
  const interpretations = options.answer.interpretations ?? [];
  const picked = interpretations.find((interpretation) => interpretation.chosen);
  if (!picked) throw new InterpretationNotFoundError(0, interpretations.length);
  const scope = options.editor.administrator ? "every role" : "you";
  const common = {
    question: options.answer.question,
    sql: options.answer.sql,
    readingsOffered: interpretations.length,
  };
  if (picked.reading) {
    const { entry } = await confirmReading({
      database: options.database,
      dataSource: options.dataSource,
      editor: options.editor,
      reading: picked.reading,
      ...common,
    });
    return {
      kind: "reading",
      entryId: entry.id,
      scope,
      message: `remembered for ${scope}: ${confirmedReadingText(picked.reading)} Later questions that hinge on "${picked.reading.phrase}" follow it without asking (knowledge entry ${entry.id}).`,
    };
  }
  await new VerifiedExampleStore(options.database).save({
    dataSource: options.dataSource,
    question: common.question,
    sql: common.sql,
    source: "picked",
    verifiedBy: options.editor.role,
    sharedWithAllRoles: options.editor.administrator,
    provenance: pickedProvenance(common.readingsOffered, options.editor.role),
  });
  return {
    kind: "example",
    scope,
    message: `remembered for ${scope}: reading #${picked.number}'s SQL as the verified answer to this question (its readings differed in their SQL, not in the meaning of one phrase).`,
  };
}
