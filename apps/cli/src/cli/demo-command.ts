import { loadServiceSettings } from "@nlq/adapters";
import {
  DEFAULT_DEMO_ANCHOR_DATE,
  DEFAULT_DEMO_SEED,
  demoTableNames,
  generateDemoDataset,
  loadDemoData,
  renderDemoSql,
} from "@nlq/demo";
import type { Command } from "commander";
import { checkDatabaseUrl, USAGE_EXIT_CODE, UsageError } from "./cli-input";
import { demoLoadOptionsSchema, demoSqlOptionsSchema, parseCommandOptions } from "./command-options";
import { type CommandOutput, describeCommandError, standardOutput } from "./command-output";

/** Where `nlq demo` writes; tests pass their own sinks. */
export type DemoCommandOutput = CommandOutput;

/**
 * `nlq demo load --url <postgresql://…> [--schema public] [--replace]`: loads nlq's generated demo database.
 * `nlq demo sql [--schema public] [--replace]`: prints the same database as one SQL script (`nlq demo sql > demo.sql`).
 */
export function registerDemoCommand(program: Command, output: DemoCommandOutput = standardOutput): void {
  const demo = program
    .command("demo")
    .description(
      `the demo database: "Hearth & Harbor", a home-goods retailer (${demoTableNames.length} tables: ${demoTableNames.join(", ")}), generated deterministically (seed ${DEFAULT_DEMO_SEED}, data up to ${DEFAULT_DEMO_ANCHOR_DATE})`,
    );

  demo
    .command("load")
    .description("create the demo tables with comments and rows in a PostgreSQL database, in one transaction")
    .option(
      "--url <url>",
      "PostgreSQL connection URL, e.g. postgresql://postgres@127.0.0.1:5432/postgres (env: NLQ_DEMO_URL, then DATABASE_URL)",
    )
    .option("--schema <schema>", "schema to create the tables in (created if missing)", "public")
    .option("--replace", "drop existing demo tables in the schema first", false)
    .option("--anchor-date <date>", anchorDateHelp, DEFAULT_DEMO_ANCHOR_DATE)
    .action(async (givenOptions: Record<string, unknown>) => {
      try {
        const options = parseCommandOptions(demoLoadOptionsSchema, givenOptions);
        const service = loadServiceSettings(process.env);
        const givenUrl = options.url ?? service.demoUrl ?? service.databaseUrl;
        if (givenUrl === undefined) {
          output.writeError(
            "nlq demo load: no database: pass --url postgresql://… or set NLQ_DEMO_URL or DATABASE_URL\n",
          );
          process.exitCode = USAGE_EXIT_CODE;
          return;
        }
        const source =
          options.url !== undefined ? "--url" : service.demoUrl !== undefined ? "NLQ_DEMO_URL" : "DATABASE_URL";
        const url = checkDatabaseUrl(givenUrl, source);
        const dataset = generateDemoDataset({ anchorDate: options.anchorDate });
        const result = await loadDemoData({
          url,
          schema: options.schema,
          replace: options.replace,
          dataset,
        });
        const width = Math.max(...result.tables.map((table) => table.name.length));
        output.write(
          `Loaded the nlq demo database into schema "${result.schema}" in ${(result.durationMilliseconds / 1000).toFixed(1)} s:\n`,
        );
        for (const table of result.tables)
          output.write(`  ${table.name.padEnd(width)}  ${String(table.rows).padStart(6)} rows\n`);
        output.write(`  ${"total".padEnd(width)}  ${String(result.totalRows).padStart(6)} rows\n`);
      } catch (error) {
        output.writeError(`nlq demo load: ${describeCommandError(error)}\n`);
        process.exitCode = UsageError.isInstance(error) ? USAGE_EXIT_CODE : 1;
      }
    });

  demo
    .command("sql")
    .description(
      "print the demo database as a SQL script (DDL, comments, inserts in one transaction), e.g. nlq demo sql > demo.sql",
    )
    .option("--schema <schema>", "schema to create the tables in (created if missing)", "public")
    .option("--replace", "start with DROP TABLE IF EXISTS for every demo table", false)
    .option("--anchor-date <date>", anchorDateHelp, DEFAULT_DEMO_ANCHOR_DATE)
    .action((givenOptions: Record<string, unknown>) => {
      let options: ReturnType<typeof demoSqlOptionsSchema.parse>;
      try {
        options = parseCommandOptions(demoSqlOptionsSchema, givenOptions);
      } catch (error) {
        output.writeError(`nlq demo sql: ${describeCommandError(error)}\n`);
        process.exitCode = USAGE_EXIT_CODE;
        return;
      }
      const dataset = generateDemoDataset({ anchorDate: options.anchorDate });
      output.write(renderDemoSql(dataset, { schema: options.schema, replace: options.replace }));
    });
}

const anchorDateHelp =
  'the data set\'s "today" (YYYY-MM-DD): orders run from 2022-01-01 to the day before; pass today\'s date so questions about "this year" stay answerable';
