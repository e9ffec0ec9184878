import { expect, test } from "@playwright/test";
import { runOnTarget, signIn } from "./sign-in";

// Two database roles on the demo data: alice may read every customer and the orders; bob only customers 1–10 (row-level
// security) and no orders at all.
const alice = "nlq_e2e_alice";
const bob = "nlq_e2e_bob";

test.beforeAll(async () => {
  await runOnTarget(`
    DROP POLICY IF EXISTS nlq_e2e_alice_all ON customers;
    DROP POLICY IF EXISTS nlq_e2e_bob_first ON customers;
    DO $$ BEGIN
      IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${alice}') THEN CREATE ROLE ${alice} LOGIN PASSWORD 'alice-e2e'; END IF;
      IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${bob}') THEN CREATE ROLE ${bob} LOGIN PASSWORD 'bob-e2e'; END IF;
    END $$;
    GRANT USAGE ON SCHEMA public TO ${alice}, ${bob};
    GRANT SELECT ON customers TO ${alice}, ${bob};
    GRANT SELECT ON orders TO ${alice};
    ALTER TABLE customers ENABLE ROW LEVEL SECURITY;
    CREATE POLICY nlq_e2e_alice_all ON customers FOR SELECT TO ${alice} USING (true);
    CREATE POLICY nlq_e2e_bob_first ON customers FOR SELECT TO ${bob} USING (customer_id <= 10);
  `);
});

test.afterAll(async () => {
  await runOnTarget(`
    DROP POLICY IF EXISTS nlq_e2e_alice_all ON customers;
    DROP POLICY IF EXISTS nlq_e2e_bob_first ON customers;
    ALTER TABLE customers DISABLE ROW LEVEL SECURITY;
    REVOKE ALL ON customers, orders FROM ${alice}, ${bob};
    REVOKE ALL ON SCHEMA public FROM ${alice}, ${bob};
  `);
});

test("asks for a database role, refuses an unknown one and keeps only a sealed session id in the cookie", async ({
  page,
  context,
}) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Sign in with your database role" })).toBeVisible();
  await page.getByLabel("PostgreSQL user").fill("nlq_e2e_nobody");
  await page.getByLabel("Password").fill("wrong");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.locator(".sign-in").getByRole("alert")).toContainText(
    "PostgreSQL did not accept this user name and password.",
  );

  // The chat API refuses a request without a session.
  const refused = await page.request.post("/api/chat", {
    data: { messages: [{ role: "user", parts: [{ type: "text", text: "how many customers are there?" }] }] },
  });
  expect(refused.status()).toBe(401);

  await signIn(page, alice, "alice-e2e");
  const [cookie] = (await context.cookies()).filter((candidate) => candidate.name === "nlq_session");
  expect(cookie?.httpOnly).toBe(true);
  expect(cookie?.sameSite).toBe("Lax");
  expect(cookie?.value).not.toContain(alice);
  expect(cookie?.value).not.toContain("alice-e2e");

  // A cross-site POST with the cookie is refused.
  const crossSite = await page.request.post("/api/chat", {
    headers: { origin: "http://evil.example" },
    data: { messages: [{ role: "user", parts: [{ type: "text", text: "how many customers are there?" }] }] },
  });
  expect(crossSite.status()).toBe(403);

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("heading", { name: "Sign in with your database role" })).toBeVisible();
});

test("two users signed in as different roles see different rows and different tables", async ({ browser }) => {
  const aliceContext = await browser.newContext();
  const bobContext = await browser.newContext();
  try {
    const alicePage = await aliceContext.newPage();
    const bobPage = await bobContext.newPage();
    await signIn(alicePage, alice, "alice-e2e");
    await signIn(bobPage, bob, "bob-e2e");

    const count = async (page: typeof alicePage) => {
      await page.getByLabel("Your question").fill("how many customers are there?");
      await page.getByLabel("Your question").press("Enter");
      const result = page.getByRole("article", { name: "Answer" }).last().getByRole("group", { name: "Result" });
      await expect(result).toBeVisible({ timeout: 45_000 });
      return Number((await result.getByRole("table").getByRole("cell").first().textContent())?.replace(/\D/g, ""));
    };
    const aliceCount = await count(alicePage);
    const bobCount = await count(bobPage);
    expect(bobCount).toBe(10);
    expect(aliceCount).toBeGreaterThan(10);
    // The recorded sentence counts every customer: alice's rows hold that figure, bob's 10 do not, so he gets none.
    const sentence = (page: typeof alicePage) =>
      page.getByRole("article", { name: "Answer" }).last().getByTestId("answer-sentence");
    await expect(sentence(alicePage)).toContainText(`${aliceCount.toLocaleString("en-US")} customers`);
    await expect(sentence(bobPage)).toHaveCount(0);

    // Orders: alice may read them, bob may not (and the table is not in his catalog).
    const trend = "show the monthly revenue trend over the last 12 months";
    await alicePage.getByLabel("Your question").fill(trend);
    await alicePage.getByLabel("Your question").press("Enter");
    await expect(
      alicePage.getByRole("article", { name: "Answer" }).last().getByRole("group", { name: "Result" }),
    ).toBeVisible({ timeout: 45_000 });
    await bobPage.getByLabel("Your question").fill(trend);
    await bobPage.getByLabel("Your question").press("Enter");
    const bobTurn = bobPage.getByRole("article", { name: "Answer" }).last();
    await expect(bobTurn.getByRole("alert")).toBeVisible({ timeout: 45_000 });
    await expect(bobTurn.getByRole("group", { name: "Result" })).toHaveCount(0);
    await bobPage.screenshot({ path: "/tmp/nlq-web-bob.png", fullPage: true });
  } finally {
    await aliceContext.close();
    await bobContext.close();
  }
});
