import {
  type ChainOfThoughtMethod,
  chainOfThoughtSqlPrompt,
  type SqlGenerationPromptOptions,
} from "./generation-prompt-sections";

/**
 * CHASE-SQL query-plan chain of thought (§2.3, appendix A.9 / Figure 19), adapted to PostgreSQL: reason the way a
 * database engine executes the query, in three steps (find and open the relevant tables, perform the operations —
 * matching, filtering, joining, counting — and deliver the final output columns), then write the query.
 * The paper's demonstration (BIRD's restaurant database) is kept, in PostgreSQL. Output: `sqlCandidateOutputSchema`.
 */
export type QueryPlanPromptOptions = SqlGenerationPromptOptions;

export const queryPlanSystemPrompt =
  "You are an experienced PostgreSQL database expert who plans a query the way the database engine executes it before writing it. Answer only with the requested JSON object.";

/** The worked demonstration of Figure 19, in PostgreSQL. */
const demonstration = `Database Info
CREATE TABLE generalinfo (
  id_restaurant integer NOT NULL,
  label text, -- the label of the restaurant
  food_type text, -- examples: 'thai', 'chinese', 'pizza'
  city text, -- examples: 'albany', 'san francisco'
  PRIMARY KEY (id_restaurant)
);

CREATE TABLE location (
  id_restaurant integer NOT NULL,
  street_num integer,
  street_name text, -- examples: 'san pablo ave', 'church st'
  city text,
  PRIMARY KEY (id_restaurant),
  FOREIGN KEY (id_restaurant) REFERENCES generalinfo (id_restaurant)
);

**Question**: How many Thai restaurants can be found in San Pablo Ave, Albany?
**Hint**: Thai restaurant refers to food_type = 'thai'; San Pablo Ave Albany refers to street_name = 'san pablo ave' AND t1.city = 'albany'

**Query Plan**:

** Preparation Steps:**
1. Initialize the process: start preparing to execute the query.
2. Prepare storage: set up storage space (registers) to hold temporary results, initializing them to NULL.
3. Open the location table so we can read from it.
4. Open the generalinfo table so we can read from it.

** Matching Restaurants:**
1. Start reading the location table: move to the first row in location.
2. Check if the street matches: look at the street_name column of the current row in location. If it is not 'san pablo ave', skip this row.
3. Identify the matching row: store the identifier (id_restaurant) of this location entry.
4. Find the corresponding row in generalinfo: use id_restaurant from location to find the matching row in generalinfo.
5. Check if the food type matches: look at the food_type column in generalinfo. If it is not 'thai', skip this row.
6. Check if the city matches: look at the city column in generalinfo. If it is not 'albany', skip this row.

** Counting Restaurants:**
1. Prepare to count this match: if all checks pass, include this row in the final count.
2. Count this match: increment the count for each row that meets all the criteria.
3. Move to the next row in location and repeat until all rows are checked.
4. Finalize the count once all rows have been checked.

** Delivering the Result:**
1. Output the final count: the number of restaurants that match all the criteria.
2. End the process.

**Final Optimized SQL Query:**
SELECT count(t1.id_restaurant) FROM generalinfo AS t1 INNER JOIN location AS t2 ON t1.id_restaurant = t2.id_restaurant WHERE t1.food_type = 'thai' AND t1.city = 'albany' AND t2.street_name = 'san pablo ave'`;

const method: ChainOfThoughtMethod = {
  description: `Before writing the query, explain how a database engine would execute it, as a query plan in plain words:
1. **Find and open the relevant tables:** which tables hold the information the question needs, and how they are related (their keys).
2. **Perform the operations:** how rows are matched between tables, which filters apply to which columns (with the exact values), and what is counted, aggregated, grouped, ordered or limited.
3. **Deliver the final output:** exactly which columns or values are returned, and nothing more.
Then write the final, optimized query that follows the plan.`,
  demonstration,
  task: "with a query plan",
  reasoningFormat:
    "Your query plan as in the example: the preparation steps (tables to open), the matching, filtering and aggregating steps, and how the result is delivered.",
};

export function queryPlanPrompt(options: QueryPlanPromptOptions): string {
  return chainOfThoughtSqlPrompt(method, options);
}
