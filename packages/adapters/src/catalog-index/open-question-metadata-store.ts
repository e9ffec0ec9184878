import { existsSync } from "node:fs";
import path from "node:path";
import type { ServiceSettings } from "../config/service-settings";
import { nlqStateDirectory } from "../metadata/nlq-home";
import { type MetadataStore, openMetadataStore } from "../metadata/open-metadata-store";

/**
 * Opens the metadata store `nlq index` writes to: `NLQ_METADATA_URL`, else the embedded PostgreSQL in
 * `$NLQ_HOME/.nlq/postgres` — only when that directory exists (a one-off question creates no state). While
 * `nlq start` runs it is shared; otherwise it is started for this process. A store that cannot be opened is
 * reported through `warn` and `undefined` is returned: questions are then answered from live introspection, unlogged.
 */
export async function openQuestionMetadataStore(
  service: ServiceSettings,
  warn: (message: string) => void,
): Promise<MetadataStore | undefined> {
  if (service.metadataUrl === undefined && !existsSync(path.join(nlqStateDirectory(service.home), "postgres")))
    return undefined;
  try {
    return await openMetadataStore({ settings: service });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    warn(`cannot open the metadata store, answering from live introspection, not logged: ${reason}`);
    return undefined;
  }
}
