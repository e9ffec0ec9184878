import { column, references, table } from "./demo-schema-builder";
import type { DemoTableDefinition } from "./demo-types";

/**
 * Reference tables of the demo retailer "Hearth & Harbor" (home goods sold online, in shops and on a marketplace):
 * product categories, suppliers, products, stores, employees, customers.
 */

export const categoriesTable: DemoTableDefinition = table({
  name: "categories",
  comment:
    "Product categories in a two-level tree: top-level departments (Kitchen, Furniture, ...) and their sub-categories.",
  columns: [
    column("category_id", "integer", "Unique identifier of the category."),
    column("name", "text", "Display name of the category, e.g. 'Cookware' or 'Outdoor'.", { unique: true }),
    column(
      "parent_category_id",
      "integer",
      "Department this sub-category belongs to; NULL for a top-level department.",
      { nullable: true },
    ),
    column("description", "text", "Short description of what the category contains.", { nullable: true }),
  ],
  primaryKey: ["category_id"],
  foreignKeys: [references("parent_category_id", "categories", "category_id")],
});

export const suppliersTable: DemoTableDefinition = table({
  name: "suppliers",
  comment:
    "Vendors and manufacturers the company buys products from. Company names are entered by hand and not normalized.",
  columns: [
    column("supplier_id", "integer", "Unique identifier of the supplier."),
    column("company_name", "text", "Supplier company name as entered by purchasing (spacing and casing vary)."),
    column("contact_name", "text", "Name of the account manager at the supplier.", { nullable: true }),
    column("email", "text", "Contact e-mail address of the supplier.", { nullable: true }),
    column("phone", "text", "Contact phone number; NULL when unknown.", { nullable: true }),
    column("country", "text", "Country the supplier ships from, as an ISO 3166-1 alpha-2 code (e.g. 'CN', 'DE')."),
    column("is_preferred", "boolean", "True for preferred suppliers with negotiated terms."),
    column("onboarded_on", "date", "Date the supplier was approved."),
  ],
  primaryKey: ["supplier_id"],
});

export const productsTable: DemoTableDefinition = table({
  name: "products",
  comment:
    "Products in the catalogue with their current list price in US dollars; discontinued products stay for order history.",
  columns: [
    column("product_id", "integer", "Unique identifier of the product."),
    column("sku", "text", "Stock keeping unit code printed on labels, e.g. 'KIT-00042'.", { unique: true }),
    column("name", "text", "Product name shown to customers."),
    column("category_id", "integer", "Sub-category the product is listed in."),
    column("supplier_id", "integer", "Supplier the product is bought from."),
    column("list_price_usd", "numeric(12,2)", "Current list price in US dollars, before discounts and tax.", {
      check: "list_price_usd >= 0",
    }),
    column(
      "unit_cost_usd",
      "numeric(12,2)",
      "Purchase cost per unit in US dollars; list price minus cost is the gross margin.",
      { check: "unit_cost_usd >= 0" },
    ),
    column("weight_kg", "numeric(8,3)", "Shipping weight in kilograms; NULL when not measured.", { nullable: true }),
    column("color", "text", "Main colour; NULL for products without a colour variant.", { nullable: true }),
    column("is_discontinued", "boolean", "True when the product can no longer be ordered."),
    column("launched_on", "date", "Date the product was first offered for sale."),
  ],
  primaryKey: ["product_id"],
  foreignKeys: [
    references("category_id", "categories", "category_id"),
    references("supplier_id", "suppliers", "supplier_id"),
  ],
});

export const storesTable: DemoTableDefinition = table({
  name: "stores",
  comment:
    "Sales channels: physical shops, the online shops and a marketplace storefront. Every order belongs to one store.",
  columns: [
    column("store_id", "integer", "Unique identifier of the store."),
    column("name", "text", "Store name, e.g. 'Chicago Loop' or 'Online US'.", { unique: true }),
    column("channel", "text", "Kind of store: 'retail' (physical shop), 'online' (own web shop) or 'marketplace'.", {
      check: "channel IN ('retail', 'online', 'marketplace')",
    }),
    column("city", "text", "City of the shop or of the warehouse serving an online store."),
    column("region", "text", "State or province code; NULL where not applicable.", { nullable: true }),
    column("country", "text", "Country as an ISO 3166-1 alpha-2 code ('US', 'GB', 'DE', 'FR', 'CA', 'BR')."),
    column("currency", "char(3)", "ISO 4217 currency the store sells in; order amounts are in this currency."),
    column("opened_on", "date", "Date the store opened."),
    column("closed_on", "date", "Date the store closed; NULL while it is open.", { nullable: true }),
  ],
  primaryKey: ["store_id"],
});

export const employeesTable: DemoTableDefinition = table({
  name: "employees",
  comment: "Staff of head office and stores, with their manager (self-reference) forming the reporting hierarchy.",
  columns: [
    column("employee_id", "integer", "Unique identifier of the employee."),
    column("first_name", "text", "Given name."),
    column("last_name", "text", "Family name."),
    column("email", "text", "Work e-mail address.", { unique: true }),
    column("job_title", "text", "Job title, e.g. 'Store Manager', 'Sales Associate', 'Customer Service Agent'."),
    column("store_id", "integer", "Store the employee works in; NULL for head-office staff.", { nullable: true }),
    column("manager_id", "integer", "Employee this person reports to; NULL for the chief executive.", {
      nullable: true,
    }),
    column("hired_on", "date", "First day of employment."),
    column("terminated_on", "date", "Last day of employment; NULL for current employees.", { nullable: true }),
    column("annual_salary_usd", "numeric(12,2)", "Gross yearly salary converted to US dollars.", {
      check: "annual_salary_usd > 0",
    }),
  ],
  primaryKey: ["employee_id"],
  foreignKeys: [references("store_id", "stores", "store_id"), references("manager_id", "employees", "employee_id")],
  checks: ["terminated_on IS NULL OR terminated_on >= hired_on"],
});

export const customersTable: DemoTableDefinition = table({
  name: "customers",
  comment:
    "People and businesses who created an account. Addresses are typed by customers, so city names have inconsistent casing, stray spaces and alternative spellings.",
  columns: [
    column("customer_id", "integer", "Unique identifier of the customer."),
    column("first_name", "text", "Given name."),
    column("last_name", "text", "Family name."),
    column("email", "text", "Login e-mail address.", { unique: true }),
    column("phone", "text", "Phone number as typed by the customer; NULL when not given.", { nullable: true }),
    column("company_name", "text", "Company for business customers; NULL for private customers.", { nullable: true }),
    column("city", "text", "City of the default address as typed (e.g. 'New York', 'new york ', 'NYC')."),
    column("region", "text", "State or province code of the default address; NULL when missing.", { nullable: true }),
    column("postal_code", "text", "Postal code of the default address; NULL when missing.", { nullable: true }),
    column("country", "text", "Country as an ISO 3166-1 alpha-2 code ('US', 'GB', 'DE', 'FR', 'CA', 'BR')."),
    column("loyalty_tier", "text", "Loyalty programme tier: 'bronze', 'silver', 'gold' or 'platinum'.", {
      check: "loyalty_tier IN ('bronze', 'silver', 'gold', 'platinum')",
    }),
    column("marketing_opt_in", "boolean", "True when the customer agreed to receive marketing e-mails."),
    column("signed_up_at", "timestamptz", "When the account was created."),
  ],
  primaryKey: ["customer_id"],
});
