import { type Catalog, introspectCatalog, type QueryExecutor, runReadOnly } from "@nlq/engine";

/**
 * The catalog selection prompts show for a pool question: read once from the session (`introspectCatalog`, read-only,
 * what the role may read), then narrowed to the question's schema when it has one (all readable tables otherwise).
 */
export function createPoolCatalogLoader(
  session: QueryExecutor,
  statementTimeoutMilliseconds = 30_000,
): (schema: string | undefined) => Promise<Catalog> {
  let whole: Promise<Catalog> | undefined;
  return async (schema) => {
    whole ??= runReadOnly({ session, statementTimeoutMilliseconds }, (query) => introspectCatalog((sql) => query(sql)));
    const catalog = await whole;
    return schema === undefined ? catalog : { tables: catalog.tables.filter((table) => table.schema === schema) };
  };
}
