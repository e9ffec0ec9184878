import {
  type ChainOfThoughtMethod,
  chainOfThoughtSqlPrompt,
  type SqlGenerationPromptOptions,
} from "./generation-prompt-sections";

/**
 * CHASE-SQL divide-and-conquer chain of thought (§2.3, Algorithm 1, appendix A.8 / Figure 17), adapted to PostgreSQL:
 * decompose the question into sub-questions with pseudo SQL, solve them, assemble the query, then simplify and
 * optimise it, all in one call. The paper's demonstration (BIRD's financial database) is kept, in PostgreSQL.
 * Output: `sqlCandidateOutputSchema`, the working in `reasoning`.
 */
export type DivideAndConquerPromptOptions = SqlGenerationPromptOptions;

export const divideAndConquerSystemPrompt =
  "You are an experienced PostgreSQL database expert who solves text-to-SQL tasks by recursive divide and conquer. Answer only with the requested JSON object.";

/** The worked demonstration of Figure 17, in PostgreSQL (lower-case identifiers, NULLS LAST written out). */
const demonstration = `Database Info
CREATE TABLE district (
  district_id integer NOT NULL,
  a2 text, -- district name
  a11 integer NOT NULL, -- average salary
  PRIMARY KEY (district_id)
);

CREATE TABLE client (
  client_id integer NOT NULL,
  gender text NOT NULL, -- examples: 'F', 'M'
  birth_date date,
  district_id integer NOT NULL,
  PRIMARY KEY (client_id),
  FOREIGN KEY (district_id) REFERENCES district (district_id)
);

**Question**: What is the gender of the youngest client who opened account in the lowest average salary branch?
**Hint**: Later birthdate refers to younger age; a11 refers to average salary

**1. Divide and Conquer:**
* **Main Question:** What is the gender of the youngest client who opened account in the lowest average salary branch?
  * **Analysis:** The question asks about gender, which is a column of client. We use it as the output column, selecting it for the youngest client in the lowest average salary branch.
  * **Pseudo SQL:** SELECT t1.gender FROM client AS t1 WHERE <youngest client in the lowest average salary branch>
  * **Sub-question 1:** youngest client in the lowest average salary branch
    * **Analysis:** According to the hint, a11 of district holds the average salary, and the youngest client is the one with the latest birth_date. client and district join on district_id.
    * **Pseudo SQL:** SELECT t1.client_id FROM client AS t1 INNER JOIN district AS t2 ON t1.district_id = t2.district_id WHERE <lowest average salary branch> ORDER BY t1.birth_date DESC NULLS LAST LIMIT 1
    * **Sub-question 1.1:** lowest average salary branch
      * **Analysis:** Order by a11 ascending and take the first row. a11 is NOT NULL, so no IS NOT NULL filter is needed.
      * **Pseudo SQL:** SELECT district_id FROM district ORDER BY a11 ASC LIMIT 1

**2. Assembling SQL:**
* **Sub-question 1.1 (lowest average salary branch):**
  * **SQL:** SELECT district_id FROM district ORDER BY a11 ASC LIMIT 1
* **Sub-question 1 (youngest client in the lowest average salary branch):**
  * **SQL:** SELECT t1.client_id FROM client AS t1 INNER JOIN district AS t2 ON t1.district_id = t2.district_id WHERE t2.district_id IN (SELECT district_id FROM district ORDER BY a11 ASC LIMIT 1) ORDER BY t1.birth_date DESC NULLS LAST LIMIT 1
* **Main Question (gender of the client):**
  * **SQL:** SELECT t1.gender FROM client AS t1 WHERE t1.client_id = (SELECT t1.client_id FROM client AS t1 INNER JOIN district AS t2 ON t1.district_id = t2.district_id WHERE t2.district_id IN (SELECT district_id FROM district ORDER BY a11 ASC LIMIT 1) ORDER BY t1.birth_date DESC NULLS LAST LIMIT 1)

**3. Simplification and Optimization:**
* The nested queries can be combined into a single INNER JOIN, and the filtering can be done in a single ORDER BY clause.

**Final Optimized SQL Query:**
SELECT t1.gender FROM client AS t1 INNER JOIN district AS t2 ON t1.district_id = t2.district_id ORDER BY t2.a11 ASC, t1.birth_date DESC NULLS LAST LIMIT 1`;

const method: ChainOfThoughtMethod = {
  description: `You will use a method called "recursive divide-and-conquer approach to SQL query generation from natural language".
Here is a high-level description of the steps:
1. **Divide (Decompose Sub-question with Pseudo SQL):** The complex natural-language question is recursively broken down into simpler sub-questions. Each sub-question targets a specific piece of information or logic required for the final query.
2. **Conquer (Real SQL for sub-questions):** For each sub-question (and the main question initially), a "pseudo-SQL" fragment is formulated. It represents the intended SQL logic, with placeholders for the answers of its own sub-questions.
3. **Combine (Reassemble):** Once all sub-questions are resolved and their SQL fragments written, the fragments are combined bottom-up by replacing the placeholders in the pseudo SQL with the real SQL from the lower levels.
4. **Final Output:** The assembled query is simplified and optimised (remove redundant joins, clauses and conditions; turn nested queries into joins where that keeps the meaning) into the complete, correct query that answers the original question.`,
  demonstration,
  task: "with recursive divide and conquer",
  reasoningFormat:
    "Your divide-and-conquer working as in the example: the main question and its sub-questions with analysis and pseudo SQL, the assembled SQL of each, then the simplification and optimization.",
};

export function divideAndConquerPrompt(options: DivideAndConquerPromptOptions): string {
  return chainOfThoughtSqlPrompt(method, options);
}
