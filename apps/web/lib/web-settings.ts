import { type ServiceSettings, serviceSettingsFrom, serviceVariables } from "@nlq/adapters";
import { type ParsedEnvironment, parseEnvironment, switchVariable, wholeNumberVariable } from "@nlq/engine";

/** The variables only the web app reads: its pool and sign-in. */
export const webVariables = {
  NLQ_WEB_POOL_SIZE: wholeNumberVariable(10, 1),
  NLQ_WEB_SINGLE_USER: switchVariable(false),
  NLQ_WEB_SESSION_IDLE_MINUTES: wholeNumberVariable(30, 1),
};

/** The web app's configuration: the shared resources (`ServiceSettings`) and its own, read by `loadWebSettings`. */
export interface WebSettings extends ServiceSettings {
  /** `NLQ_WEB_POOL_SIZE`: the web app's most concurrent database connections (questions). Default 10. */
  readonly webPoolSize: number;
  /**
   * `NLQ_WEB_SINGLE_USER`: the web app asks no sign-in and answers every question as `DATABASE_URL`'s role (the demo
   * of `nlq start`). Default false: each user signs in as a PostgreSQL role.
   */
  readonly webSingleUser: boolean;
  /** `NLQ_WEB_SESSION_IDLE_MINUTES`: a signed-in web session (and its connections) ends after this idle time. Default 30. */
  readonly webSessionIdleMinutes: number;
}

function webSettingsFrom(values: ParsedEnvironment<typeof serviceVariables & typeof webVariables>): WebSettings {
  return {
    ...serviceSettingsFrom(values),
    webPoolSize: values.NLQ_WEB_POOL_SIZE,
    webSingleUser: values.NLQ_WEB_SINGLE_USER,
    webSessionIdleMinutes: values.NLQ_WEB_SESSION_IDLE_MINUTES,
  };
}

/**
 * Reads and validates what the web app reads (the pipeline's, the shared and the web app's variables) in one pass:
 * empty strings count as unset, and one `ConfigurationError` names each bad variable.
 */
export function loadWebSettings(environment: Readonly<Record<string, string | undefined>>): WebSettings {
  return webSettingsFrom(parseEnvironment(environment, { ...serviceVariables, ...webVariables }));
}
