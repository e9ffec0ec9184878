import { z } from "zod";
import { commaListFlag, databaseUrlFlag, existingFileFlag, outputFileFlag } from "./command-options";

/** The options of `nlq knowledge …` (checked by `parseCommandOptions`, as every command's). */

const writableKinds = ["term", "metric", "description", "rule"] as const;

const kindFlag = z.enum(writableKinds, { message: `must be one of ${writableKinds.join(", ")}` });

const connection = { url: databaseUrlFlag.optional(), json: z.boolean().default(false) };

export const knowledgeAddOptionsSchema = z.object({
  ...connection,
  kind: kindFlag,
  name: z.string({ message: "is required: the term, the metric, the element described or the rule's title" }),
  text: z.string({ message: "is required: the definition, description or rule in plain language" }),
  sql: z.string().optional(),
  references: commaListFlag.optional(),
});

export const knowledgeListOptionsSchema = z.object({
  ...connection,
  kind: z
    .enum([...writableKinds, "reading"], { message: "must be one of term, metric, description, rule, reading" })
    .optional(),
  suggestions: z.boolean().default(false),
  comments: z.boolean().default(true),
});

export const knowledgeImportOptionsSchema = z.object({
  ...connection,
  file: existingFileFlag,
  format: z.enum(["dbt", "yaml"], { message: "must be dbt or yaml" }).optional(),
  replace: z.boolean().default(false),
});

export const knowledgeIdOptionsSchema = z.object({
  ...connection,
  id: z.string().min(1, { message: "is required" }),
});

export const knowledgeExportOptionsSchema = z.object({ ...connection, out: outputFileFlag.optional() });

export const knowledgeEditOptionsSchema = z
  .object({
    ...connection,
    id: z.string().min(1, { message: "is required" }),
    name: z.string().optional(),
    text: z.string().optional(),
    sql: z.string().optional(),
    references: commaListFlag.optional(),
  })
  .refine(
    (options) =>
      options.name !== undefined ||
      options.text !== undefined ||
      options.sql !== undefined ||
      options.references !== undefined,
    { message: "nothing to change: pass --name, --text, --sql or --references (--sql '' removes the SQL)" },
  );
