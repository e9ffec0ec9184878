import { type MetadataDatabase, type QuestionAsker, rememberPickedReading, sessionAuthority } from "@nlq/adapters";
import { type Answer, NlqError } from "@nlq/engine";
import type { WireNotice } from "../protocol/backend-messages";
import type { PickOptions } from "../session/pick-options";
import type { ProxyLogger } from "./proxy-logger";

/** Where the proxy keeps confirmed picks (`/* nl#2 remember *\/;`), and who is an administrator. */
export interface ReadingConfirmations {
  /** The metadata store's database (`MetadataStore.database`). */
  readonly database: MetadataDatabase;
  /** `NLQ_WEB_EXAMPLE_ADMIN_ROLE`: its members (and superusers) confirm for every role. */
  readonly administratorRole: string;
}

export interface RememberPickOptions {
  /** Default none: nothing can be kept, and the WARNING says so. */
  readonly confirmations?: ReadingConfirmations;
  /** The pick as the connection ran it (its session, transaction status, settings, cancellation). */
  readonly pickOptions: PickOptions;
  /** The picked answer (`answerWithInterpretation`'s). */
  readonly answer: Answer;
  /** Who picked (the connection's startup user and data source). */
  readonly asker: QuestionAsker | undefined;
  readonly logger: ProxyLogger;
}

function warning(message: string): WireNotice {
  return { severity: "WARNING", code: "01000", message: `nlq: ${message}` };
}

/**
 * What a `remember` pick kept, as the NOTICE sent before its rows (`nlq: remembered for you: …`), or a WARNING saying
 * why nothing was: who the role is and whether it is an administrator are asked on the connection's own session
 * (`sessionAuthority`), then `rememberPickedReading` keeps it. Never throws; a failure is logged.
 */
export async function rememberPick(options: RememberPickOptions): Promise<WireNotice> {
  const { confirmations, pickOptions, asker } = options;
  if (!confirmations || !asker) {
    return warning("nothing was remembered: this proxy keeps no metadata store (NLQ_METADATA_URL)");
  }
  try {
    const editor = await sessionAuthority({
      session: pickOptions.session,
      transactionStatus: pickOptions.transactionStatus ?? "idle",
      statementTimeoutMilliseconds: pickOptions.settings.statementTimeoutMilliseconds,
      administratorRole: confirmations.administratorRole,
      abortSignal: pickOptions.abortSignal,
    });
    const remembered = await rememberPickedReading({
      database: confirmations.database,
      dataSource: asker.dataSource,
      editor,
      answer: options.answer,
    });
    return { severity: "NOTICE", code: "00000", message: `nlq: ${remembered.message}` };
  } catch (error) {
    options.logger.warn("could not remember a confirmed reading", {
      error: error instanceof Error ? error.message : String(error),
    });
    return warning(
      `nothing was remembered: ${NlqError.isInstance(error) ? error.message : "the metadata store could not keep it"}`,
    );
  }
}
