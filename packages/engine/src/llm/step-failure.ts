import { CancelledError } from "../errors/cancelled-error";
import { ModelCallError, ModelOutputError } from "../errors/model-errors";

/**
 * Whether `error` is the failure of one model call that the pipeline degrades around instead of failing the question:
 * an unreadable reply (`ModelOutputError`), a call the provider refused or that failed, or a spent call budget
 * (`ModelCallError`), or the question's deadline (a `CancelledError` while the client has not cancelled). The
 * client's cancel (`abortSignal` aborted) and every other error are not: they end the question. Every other
 * `CancelledError` is raised only once `abortSignal` fired, so one raised while it has not is the deadline's.
 */
export function isDegradableStepFailure(error: unknown, context: { readonly abortSignal?: AbortSignal }): boolean {
  if (context.abortSignal?.aborted) return false;
  return ModelOutputError.isInstance(error) || ModelCallError.isInstance(error) || CancelledError.isInstance(error);
}

/**
 * The call's output, or undefined when it failed in a way the question survives (`isDegradableStepFailure`: an
 * unreadable or refused reply, a spent budget, the deadline); every other error is thrown. For steps that leave
 * things as they were when their call fails (schema selection, the reading step's model call).
 */
export async function unlessDegradableFailure<OUTPUT>(
  context: { readonly abortSignal?: AbortSignal },
  call: () => Promise<OUTPUT>,
): Promise<OUTPUT | undefined> {
  try {
    return await call();
  } catch (error) {
    if (!isDegradableStepFailure(error, context)) throw error;
    return undefined;
  }
}
