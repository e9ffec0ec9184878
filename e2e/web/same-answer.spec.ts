import { spawnSync } from "node:child_process";
import { expect, test } from "@playwright/test";
import { e2eSuperuserPassword } from "./e2e-database";
import { signIn } from "./sign-in";

/**
 * One engine behind every surface: the same question asked in the web app and through psql (the proxy that `nlq
 * start` runs beside it, launcher mode only) shows the same SQL, confidence and candidate count.
 */
const proxyPort = process.env.NLQ_E2E_PROXY_PORT ?? "6500";

/** What psql prints for a question through the proxy: the chosen SQL and the selection line of its NOTICE. */
function askThroughPsql(question: string): { sql: string; detail: string } {
  const run = spawnSync(
    "psql",
    ["-X", "-h", "127.0.0.1", "-p", proxyPort, "-U", "postgres", "-d", "demo", "-c", `/* nl: ${question} */;`],
    {
      encoding: "utf8",
      timeout: 60_000,
      // The embedded PostgreSQL asks for the superuser's password (serve-launcher.ts writes it to the pgpass file).
      env: { ...process.env, PGCONNECT_TIMEOUT: "10", PGPASSWORD: e2eSuperuserPassword },
    },
  );
  expect(run.status, run.stderr).toBe(0);
  // psql prints NOTICEs on stderr: "NOTICE:  nlq: <sql>" (continuation lines indented), then "DETAIL:  model …".
  const notice = /NOTICE: {2}nlq: ([\s\S]*?)\nDETAIL: {2}(.*)/.exec(run.stderr);
  expect(notice, run.stderr).not.toBeNull();
  return { sql: notice![1]!, detail: notice![2]! };
}

const normalize = (sql: string) => sql.replace(/\s+/g, " ").trim();

test.skip(process.env.NLQ_E2E_WEB_SERVER === "direct", "needs the proxy that nlq start runs (launcher mode)");

test("a question shows the same SQL, confidence and candidates in the web app and through psql", async ({ page }) => {
  const question = "which customers are from Berlin?";
  const psql = askThroughPsql(question);
  // e.g. "model scripted:…; confidence 100% (3 of 3 candidates returned this result); 3 candidates, 1 distinct result"
  const selection = /confidence (\d+)% \(([^)]*)\); (\d+) candidates/.exec(psql.detail);
  expect(selection, psql.detail).not.toBeNull();
  const [, confidence, basis, candidates] = selection!;

  await signIn(page);
  const input = page.getByLabel("Your question");
  await input.fill(question);
  await input.press("Enter");
  const result = page.getByRole("article", { name: "Answer" }).last().getByRole("group", { name: "Result" });
  await expect(result).toBeVisible({ timeout: 45_000 });

  expect(normalize(await result.locator(".sql-code").innerText())).toBe(normalize(psql.sql));
  const badge = result.getByText(/^confidence \d+%$/);
  await expect(badge).toHaveText(`confidence ${confidence}%`);
  await expect(badge).toHaveAttribute("title", basis!);
  await expect(result.getByText(new RegExp(`^${candidates} candidates`))).toBeVisible();
});
