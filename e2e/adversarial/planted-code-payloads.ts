import type { Payload } from "./payload";

const planted = (name: string, sql: string, refusal: Payload["refusal"]): Payload => ({
  name,
  group: "planted",
  sql: () => sql,
  refusal,
});

/** `<kind> att.<name> (owner <attacker>): …` as the refusal names the object another role planted. */
const names = (object: string, rest: string) => (world: { readonly attacker: string }) =>
  new RegExp(`${object.replaceAll(".", "\\.")} \\(owner ${world.attacker}\\): ${rest}`);

const viewBody = names(
  "view att.v_sales",
  "its view body calls att\\.f\\(\\) \\(owner nlq_adv_att_\\w+\\), which is volatile",
);
const castOfColumn = names(
  "table att.ledger",
  "column amt has type att\\.money2 \\(owner nlq_adv_att_\\w+\\), whose cast from att\\.money2 to text runs att\\.m2t\\(\\)",
);

/**
 * Issue 25: code another role planted that PostgreSQL runs for a plain SELECT — a view whose body calls the planted
 * function (`COPY … TO PROGRAM` and `dblink_exec` of the rows the asker can see into the planter's table), an implicit
 * cast of the planted type reached through `lower()`, `concat()`, `substr()`, a planted row-level security policy —
 * and a shadowing `=` whose refusal must name it and its owner. The world plants them with `plantCode`
 * (`@nlq/adapters/testing`); every case checks the file and the planter's table from outside the session.
 */
export const plantedCodePayloads: readonly Payload[] = [
  planted("planted view runs COPY TO PROGRAM and dblink_exec", "SELECT * FROM att.v_sales", viewBody),
  planted(
    "planted view copies the asker's rows to the planter's table (cross-role leak)",
    "SELECT region, total FROM att.v_sales WHERE total > 0",
    viewBody,
  ),
  planted("planted view inside a CTE", "WITH s AS (SELECT * FROM att.v_sales) SELECT count(*) AS n FROM s", viewBody),
  planted("planted implicit cast through lower()", "SELECT lower(amt) AS amount FROM att.ledger", castOfColumn),
  planted("planted implicit cast through concat()", "SELECT concat(amt, '') AS amount FROM att.ledger", castOfColumn),
  planted("planted implicit cast through substr()", "SELECT substr(amt, 1, 3) AS amount FROM att.ledger", castOfColumn),
  planted(
    "planted row-level security policy",
    "SELECT count(*) AS n FROM att.accounts",
    names("table att.accounts", "its row-level security policy accounts_seen calls att\\.f\\(\\)"),
  ),
  planted(
    "shadowing = operator is refused by name and owner",
    "SELECT count(*) AS n FROM canary WHERE id = 1",
    (world) =>
      new RegExp(
        `operator = calls public\\.planted_int_eq\\(\\), which is volatile: it is operator public\\.=\\(integer, bigint\\) \\(owner ${world.attacker}\\); schema public is on the search path`,
      ),
  ),
];
