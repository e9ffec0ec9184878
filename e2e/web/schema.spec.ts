import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { runOnTarget, signIn } from "./sign-in";

// A role that may read two columns of customers (only customers 1–5 under row-level security) and nothing else.
const reader = "nlq_e2e_schema_reader";

test.beforeAll(async () => {
  await runOnTarget(`
    DROP POLICY IF EXISTS nlq_e2e_schema_first ON customers;
    DO $$ BEGIN
      IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${reader}') THEN
        CREATE ROLE ${reader} LOGIN PASSWORD 'schema-e2e';
      END IF;
    END $$;
    GRANT USAGE ON SCHEMA public TO ${reader};
    GRANT SELECT (customer_id, city) ON customers TO ${reader};
    ALTER TABLE customers ENABLE ROW LEVEL SECURITY;
    CREATE POLICY nlq_e2e_schema_first ON customers FOR SELECT TO ${reader} USING (customer_id <= 5);
  `);
});

test.afterAll(async () => {
  await runOnTarget(`
    DROP POLICY IF EXISTS nlq_e2e_schema_first ON customers;
    REVOKE ALL ON customers FROM ${reader};
    REVOKE ALL ON SCHEMA public FROM ${reader};
  `);
  // Row-level security stays on only if another policy still needs it.
  await runOnTarget(`
    DO $$ BEGIN
      IF NOT EXISTS (SELECT FROM pg_policies WHERE tablename = 'customers') THEN
        ALTER TABLE customers DISABLE ROW LEVEL SECURITY;
      END IF;
    END $$;
  `);
});

test("the schema page lists what the signed-in role may read, with columns, types and a few values", async ({
  page,
}) => {
  await signIn(page);
  await page.getByRole("link", { name: "Schema" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("what your role may read");
  const orders = page.locator("details.schema-table").filter({ has: page.getByText("orders", { exact: true }) });
  await expect(orders).toHaveCount(1);
  await orders.locator("summary").click();
  const columns = orders.getByRole("table", { name: "Columns of orders" });
  await expect(columns.getByRole("cell", { name: "order_id (key)" })).toBeVisible();
  expect((await new AxeBuilder({ page }).analyze()).violations.map((violation) => violation.id)).toEqual([]);

  // Another role sees only its granted columns of its one table.
  await page.context().clearCookies();
  await signIn(page, reader, "schema-e2e");
  await page.goto("/schema");
  await expect(page.getByText(/1 table readable as/)).toBeVisible();
  const tables = page.locator("details.schema-table .schema-table-name");
  await expect(tables).toHaveText(["customers"]);
  await page.locator("details.schema-table summary").click();
  const customerColumns = page.getByRole("table", { name: "Columns of customers" });
  await expect(customerColumns.locator("tbody tr td:first-child")).toHaveText(["customer_id (key)", "city"]);
  // A few city values, read as the role (row-level security: customers 1–5 only).
  await expect(customerColumns.locator("tbody tr").nth(1).locator("td").nth(3)).not.toHaveText("");
  await expect(page.getByText("email")).toHaveCount(0);
});
