import {
  type KnowledgeEditor,
  type MetadataDatabase,
  type RememberedPick,
  rememberPickedReading,
  type WebThreadStore,
} from "@nlq/adapters";
import { storedReading } from "./stored-reading";

export interface ConfirmPickedReadingOptions {
  readonly database: MetadataDatabase;
  readonly threads: Pick<WebThreadStore, "turn">;
  /** The signed-in user: the turn must be one of this role's, on this data source. */
  readonly user: { readonly role: string; readonly dataSource: string };
  /** The turn whose answer offered the readings. */
  readonly turnId: string;
  /** The reading's number as the page shows it (#1 is nlq's pick). */
  readonly number: number;
  /** Who confirms (`exampleEditor`): an administrator's confirmation is for every role. Asked only when it is kept. */
  readonly editor: () => Promise<KnowledgeEditor>;
  /** Validates the reading's SQL again as the signed-in role (`validatedSql`), returning it as validated. */
  readonly validate: (sql: string) => Promise<string>;
}

/**
 * "Use this from now on" beside a reading in the web app (docs/decisions/2026-12-01-readings-knowledge-and-teaching.md,
 * rule 3): the reading is taken from the stored answer of the user's own turn — never from what the browser sends —
 * its SQL validated again as the user's role, then confirmed through `rememberPickedReading`: a `reading` knowledge
 * entry when it came from a phrase in doubt, and a verified example with the provenance "picked from N readings by
 * <role>". Undefined when the user has no such turn (or it holds no answer); throws `InterpretationNotFoundError` for a
 * number its answer does not offer. A pick alone (the reading's button) stores nothing: it only runs the SQL.
 */
export async function confirmPickedReading(options: ConfirmPickedReadingOptions): Promise<RememberedPick | undefined> {
  const reading = await storedReading(options.threads, options.user, options.turnId, options.number);
  if (!reading) return undefined;
  const { question, picked, interpretations } = reading;
  const sql = await options.validate(picked.sql);
  return rememberPickedReading({
    database: options.database,
    dataSource: options.user.dataSource,
    editor: await options.editor(),
    answer: {
      question,
      sql,
      interpretations: interpretations.map((interpretation) => ({
        number: interpretation.number,
        chosen: interpretation.number === options.number,
        ...(interpretation.reading ? { reading: interpretation.reading } : {}),
      })),
    },
  });
}
