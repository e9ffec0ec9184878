import { createPgExecutor, createQuestionAnswerer, type MetadataStore } from "@nlq/adapters";
import {
  fetchSampleValues,
  introspectCatalog,
  loadFunctionPolicy,
  loadSettings,
  runReadOnly,
  type Settings,
  sharedFunctionPolicyCache,
} from "@nlq/engine";
import pg from "pg";
import { percentile } from "./overhead-report";

/** The median time of each part of a question's path before generation, called directly (not through the proxy). */
export interface ComponentTimes {
  readonly part: string;
  readonly p50: number;
}

/**
 * Times, on one connection to the demo, each database step the proxy runs per question before the model is asked:
 * the identity scope a server's question opens (`createQuestionAnswerer` with `upstreamUrl`), the catalog index part of
 * `createQuestionAnswerer`'s `prepare` for a one-role caller (data source lookup, index stamp, the catalog restricted
 * to the role with its examples read again under it), the function policy (loaded from `pg_proc`, and from
 * the per-role cache as questions get it), and for comparison
 * live introspection with sample values (the path of a database nothing indexed). `runs` calls each, median.
 */
export async function measureComponents(options: {
  readonly url: string;
  readonly store: MetadataStore;
  readonly runs: number;
}): Promise<ComponentTimes[]> {
  const client = new pg.Client({ connectionString: options.url });
  await client.connect();
  const session = createPgExecutor(client);
  const settings: Settings = loadSettings({ NLQ_PRESET: "fast" });
  const scope = { session, statementTimeoutMilliseconds: 30_000 };
  const { prepare } = createQuestionAnswerer({
    store: options.store,
    url: options.url,
    // Timing the index path: a lookup that failed would time the fallback instead.
    onIndexError: (error) => {
      throw error;
    },
  });
  const parts: Array<[string, () => Promise<unknown>]> = [
    [
      "identity scope (a server's question, createQuestionAnswerer)",
      () => runReadOnly(scope, (query) => query("SELECT pg_catalog.current_database(), current_user")),
    ],
    [
      "prepare: index lookup, catalog restricted to the role, its examples read again",
      () => prepare({ session, settings }),
    ],
    [
      "function policy, loaded from pg_proc",
      () => runReadOnly(scope, (query) => loadFunctionPolicy(query, settings.allowedFunctions)),
    ],
    [
      "function policy, cached (what a question runs: the fingerprint query)",
      () => runReadOnly(scope, (query) => sharedFunctionPolicyCache.load(query, settings.allowedFunctions)),
    ],
    [
      "live introspection + sample values (unindexed path)",
      () => runReadOnly(scope, async (query) => fetchSampleValues(query, await introspectCatalog(query))),
    ],
  ];
  try {
    const times: ComponentTimes[] = [];
    for (const [part, work] of parts) {
      const samples: number[] = [];
      for (let run = 0; run < options.runs + 3; run++) {
        const started = performance.now();
        await work();
        if (run >= 3) samples.push(performance.now() - started);
      }
      times.push({ part, p50: percentile(samples, 0.5) });
    }
    return times;
  } finally {
    await client.end();
  }
}
