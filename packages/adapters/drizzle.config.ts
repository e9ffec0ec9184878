import { defineConfig } from "drizzle-kit";

/**
 * drizzle-kit configuration of the metadata store. Run from the repository root:
 *   npm run db:generate -- --name <slug>
 * Reads every table file in packages/adapters/src/metadata/schema/ and writes SQL migrations to the
 * root `migrations/` folder (commit them); `openMetadataStore` applies them at open.
 */
export default defineConfig({
  dialect: "postgresql",
  schema: "./packages/adapters/src/metadata/schema/*.ts",
  out: "./migrations",
});
