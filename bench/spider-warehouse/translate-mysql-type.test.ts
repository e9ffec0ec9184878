import { describe, expect, it } from "vitest";
import { parseMysqlDdl } from "./parse-mysql-ddl";
import { planPostgresSchema } from "./render-postgres-ddl";
import { translateMysqlType } from "./translate-mysql-type";

describe("translateMysqlType", () => {
  it.each([
    ["INTEGER", "integer"],
    ["INT(11)", "integer"],
    ["INT UNSIGNED", "bigint"],
    ["TINYINT(1)", "smallint"],
    ["BIGINT(20)", "bigint"],
    ["BIGINT UNSIGNED", "numeric(20)"],
    ["DECIMAL(19,4)", "numeric(19,4)"],
    ["NUMERIC(2)", "numeric(2)"],
    ["DECIMAL", "numeric"],
    ["REAL", "double precision"],
    ["FLOAT", "double precision"],
    ["FLOAT(8)", "double precision"],
    ["FLOAT(10,2)", "double precision"],
    ["DOUBLE", "double precision"],
    ["VARCHAR(255)", "varchar(255)"],
    ["CHAR(15)", "varchar(15)"],
    ["CHAR (15)", "varchar(15)"],
    ["TEXT", "text"],
    ["LONGTEXT", "text"],
    ["DATETIME", "timestamp"],
    ["DATE", "date"],
    ["YEAR", "smallint"],
    ["BOOLEAN", "boolean"],
    ["BLOB", "bytea"],
  ])("%s → %s", (mysql, postgres) => {
    expect(translateMysqlType(mysql)).toBe(postgres);
  });

  it("returns undefined for types it does not know", () => {
    expect(translateMysqlType("GEOMETRY")).toBeUndefined();
  });
});

const fixture = `-- Dialect: mysql | Database: shop_1 | Table Count: 3

CREATE TABLE \`shop_1\`.\`Customer\` (
    \`Customer_ID\` INT(11) NOT NULL,
    \`Name\` CHAR (15) NOT NULL DEFAULT '',
    \`Home Town\` VARCHAR(30) NOT NULL DEFAULT 'Asia',
    \`18_49_Rating_Share\` FLOAT(4,1) NOT NULL DEFAULT '0.0',
    \`Joined\` DATETIME DEFAULT CURRENT_TIMESTAMP,
    \`Note\` VARCHAR(40) DEFAULT NULL,
    PRIMARY KEY (\`Customer_ID\`),
    UNIQUE (\`Name\`)
);

CREATE TABLE \`shop_1\`.\`Order\` (
    \`Order_ID\` INTEGER,
    \`customer_id\` INTEGER,
    \`Line\` INTEGER NOT NULL,
    PRIMARY KEY (\`Order_ID\`, \`Line\`),
    FOREIGN KEY (\`Customer_ID\`) REFERENCES \`shop_1\`.\`customer\` (\`customer_id\`),
    INDEX idx_customer_id (\`customer_id\`)
);

CREATE TABLE \`shop_1\`.\`Shipment\` (
    \`Order_ID\` INTEGER,
    \`Line\` INTEGER,
    FOREIGN KEY (\`Order_ID\`, \`Line\`) REFERENCES \`shop_1\`.\`Order\` (\`Order_ID\`, \`Line\`),
    FOREIGN KEY (\`Order_ID\`) REFERENCES \`shop_1\`.\`Invoice\` (\`Order_ID\`)
);
`;

describe("parseMysqlDdl", () => {
  it("reads tables, columns, keys, indexes and defaults of the Spider DDL", () => {
    const schema = parseMysqlDdl(fixture);
    expect(schema.unparsed).toEqual([]);
    expect(schema.tables.map((table) => `${table.database}.${table.name}`)).toEqual([
      "shop_1.Customer",
      "shop_1.Order",
      "shop_1.Shipment",
    ]);
    const [customer, order, shipment] = schema.tables;
    expect(
      customer!.columns.map((column) => [column.name, column.type, column.notNull, column.defaultExpression]),
    ).toEqual([
      ["Customer_ID", "INT(11)", true, undefined],
      ["Name", "CHAR(15)", true, "''"],
      ["Home Town", "VARCHAR(30)", true, "'Asia'"],
      ["18_49_Rating_Share", "FLOAT(4,1)", true, "'0.0'"],
      ["Joined", "DATETIME", false, "CURRENT_TIMESTAMP"],
      ["Note", "VARCHAR(40)", false, undefined],
    ]);
    expect(customer!.primaryKey).toEqual(["Customer_ID"]);
    expect(customer!.uniqueKeys).toEqual([["Name"]]);
    expect(order!.primaryKey).toEqual(["Order_ID", "Line"]);
    expect(order!.indexes).toEqual([{ name: "idx_customer_id", columns: ["customer_id"] }]);
    expect(shipment!.foreignKeys[0]).toEqual({
      columns: ["Order_ID", "Line"],
      referencedDatabase: "shop_1",
      referencedTable: "Order",
      referencedColumns: ["Order_ID", "Line"],
    });
  });
});

describe("planPostgresSchema", () => {
  it("renders lower-cased quoted names, translated types, keys and defaults", () => {
    const plan = planPostgresSchema("shop_1", parseMysqlDdl(fixture).tables);
    expect(plan.tables[0]!.createStatement).toBe(
      [
        'CREATE TABLE "shop_1"."customer" (',
        '  "customer_id" integer NOT NULL,',
        "  \"name\" varchar(15) NOT NULL DEFAULT '',",
        "  \"home town\" varchar(30) NOT NULL DEFAULT 'Asia',",
        "  \"18_49_rating_share\" double precision NOT NULL DEFAULT '0.0',",
        '  "joined" timestamp DEFAULT CURRENT_TIMESTAMP,',
        '  "note" varchar(40),',
        '  PRIMARY KEY ("customer_id"),',
        '  UNIQUE ("name")',
        ")",
      ].join("\n"),
    );
    expect(plan.tables[1]!.indexStatements).toEqual(['CREATE INDEX ON "shop_1"."order" ("customer_id")']);
  });

  it("resolves foreign keys case-insensitively and reports keys to unknown tables", () => {
    const plan = planPostgresSchema("shop_1", parseMysqlDdl(fixture).tables);
    expect(plan.tables[1]!.foreignKeys[0]!.statement).toBe(
      'ALTER TABLE "shop_1"."order" ADD FOREIGN KEY ("customer_id") REFERENCES "shop_1"."customer" ("customer_id")',
    );
    expect(plan.tables[2]!.foreignKeys[0]!.statement).toBe(
      'ALTER TABLE "shop_1"."shipment" ADD FOREIGN KEY ("order_id", "line") REFERENCES "shop_1"."order" ("order_id", "line")',
    );
    expect(plan.tables[2]!.foreignKeys[1]).toMatchObject({
      statement: undefined,
      problem: "referenced table Invoice does not exist",
    });
  });

  it("keeps the original spelling when lower-casing would make two names collide", () => {
    const ddl = "CREATE TABLE `d`.`T` (`Name` TEXT, `name` TEXT);\nCREATE TABLE `d`.`t` (`x` INT);";
    const plan = planPostgresSchema("d", parseMysqlDdl(ddl).tables);
    expect(plan.tables.map((table) => table.name)).toEqual(["T", "t"]);
    expect(plan.tables[0]!.columns.map((column) => column.name)).toEqual(["Name", "name"]);
  });
});
