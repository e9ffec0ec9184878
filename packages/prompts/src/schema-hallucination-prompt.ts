import { z } from "zod";

/**
 * CRUSH4SQL schema hallucination (paper §3.1): the model invents a minimal relational schema that could answer the
 * question; each hallucinated `table.column` then probes the real schema's vector index. Few-shot examples are the
 * paper's Table 1 (Spider) and Table 12 (BIRD). Output: `schemaHallucinationOutputSchema`.
 */
export interface SchemaHallucinationExample {
  readonly question: string;
  /** Hallucinated tables, each `Table(column, column)`. */
  readonly schema: readonly string[];
}

/** Spider-style examples, CRUSH4SQL Table 1. */
export const spiderSchemaHallucinationExamples: readonly SchemaHallucinationExample[] = [
  {
    question: "Count the number of members in the Bootup Baltimore Club older than 18.",
    schema: ["Club(Name, id, description, location)", "member_of_club(club id, student id)", "Student(id, age)"],
  },
  {
    question: "What are the names of all stations with a latitude smaller than 37.5?",
    schema: ["Station(Name, Latitude)"],
  },
  {
    question: "Show the season, the player, and the name of the team that players belong to.",
    schema: ["Match_season(season, team, player)", "Team(name, team identifier)"],
  },
  {
    question: "Find the first name and age of the students who are playing both Football and Lacrosse.",
    schema: ["SportsInfo(sportname, student id)", "Student(age, first name, student id)"],
  },
  {
    question: "What are the names of tourist attractions reachable by bus or is at address 254 Ottilie Junction?",
    schema: ["Locations(address, location id)", "Tourist_attractions(how to get there, location id, name)"],
  },
  { question: "Give the name of the highest paid instructor.", schema: ["Instructor(Name, Salary)"] },
];

/** BIRD-style examples, CRUSH4SQL Table 12. */
export const birdSchemaHallucinationExamples: readonly SchemaHallucinationExample[] = [
  {
    question: "What is the brand of the truck that is used to ship by Zachery Hicks?",
    schema: ["truck(truck_id, make)", "shipment(truck_id, driver_id)", "driver(driver_id, first_name, last_name)"],
  },
  {
    question: "State the name of the city where Jose Rodriguez works.",
    schema: ["employee(locationID, firstname, lastname)", "location(locationID, locationcity)"],
  },
  {
    question: "Please list all horror films that have a rating of 1.",
    schema: ["u2base(movieid, rating)", "movies2directors(movieid, genre)"],
  },
  {
    question: "List all the names of the books written by Danielle Steel.",
    schema: ["book(book_id, title)", "book_author(book_id, author_id)", "author(author_id, author_name)"],
  },
  {
    question: "How many female representatives are there in Michigan?",
    schema: ["current(bioguide_id, bioguide, gender_bio)", "current_terms(bioguide, type, state)"],
  },
  {
    question: "How many stars does each of the 3 top users with the most likes in their reviews have?",
    schema: ["Tips(user_id, likes)", "Users(user_id, user_average_stars)"],
  },
];

export interface SchemaHallucinationPromptOptions {
  readonly question: string;
  /** Optional evidence or hint; appended to the question when non-empty. */
  readonly hint?: string;
  /** Few-shot examples. Default: `birdSchemaHallucinationExamples`. */
  readonly examples?: readonly SchemaHallucinationExample[];
}

export const schemaHallucinationSystemPrompt =
  "You design minimal relational database schemas. Answer only with the requested JSON object.";

export function schemaHallucinationPrompt(options: SchemaHallucinationPromptOptions): string {
  const examples = options.examples ?? birdSchemaHallucinationExamples;
  const hint = options.hint?.trim();
  const question = hint ? `${options.question.trim()} (${hint})` : options.question.trim();
  const shots = examples
    .map((example) => `Question: ${example.question}\nSchema: ${JSON.stringify({ tables: example.schema })}`)
    .join("\n\n");
  return `Hallucinate a minimal schema of a relational database that can be used to answer the natural language question. Here are some examples:

${shots}

Question: ${question}
Schema:`;
}

/**
 * Output of `hallucinate-schema`. The `Table(column, ...)` shape is asked for in words, not as a `pattern`: providers'
 * structured outputs do not all accept one, and `parseHallucinatedSchema` reads any text leniently.
 */
export const schemaHallucinationOutputSchema = z.object({
  tables: z.array(z.string()).describe("The hallucinated tables, each written as Table(column, column, ...)."),
});

export type SchemaHallucinationOutput = z.infer<typeof schemaHallucinationOutputSchema>;

/** A hallucinated `table.column`, one CRUSH probe. */
export interface HallucinatedColumn {
  readonly table: string;
  readonly column: string;
}

/**
 * Parses `Table(col, col)` strings into table.column probes (trimmed, duplicates removed, original spelling kept).
 * A table without columns becomes one probe with an empty column; text that is not `Table(...)` is taken whole as
 * a table name.
 */
export function parseHallucinatedSchema(tables: readonly string[]): HallucinatedColumn[] {
  const probes: HallucinatedColumn[] = [];
  const seen = new Set<string>();
  const add = (table: string, column: string) => {
    const key = `${table.toLowerCase()}\u0000${column.toLowerCase()}`;
    if (seen.has(key) || (table === "" && column === "")) return;
    seen.add(key);
    probes.push({ table, column });
  };
  for (const text of tables) {
    const match = /^\s*([^()]*?)\s*\(([^()]*)\)?\s*$/.exec(text);
    if (!match) {
      add(text.trim(), "");
      continue;
    }
    const table = match[1] ?? "";
    const columns = (match[2] ?? "")
      .split(",")
      .map((column) => column.trim())
      .filter((column) => column.length > 0);
    if (columns.length === 0) add(table, "");
    for (const column of columns) add(table, column);
  }
  return probes;
}
