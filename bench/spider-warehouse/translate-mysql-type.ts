/**
 * Translates a MySQL column type (as written in the Spider DDL, upper-cased) to a PostgreSQL type.
 * Choices a reader might question:
 * - Every approximate type (FLOAT, FLOAT(p), FLOAT(M,D), REAL, DOUBLE) becomes `double precision`:
 *   MySQL REAL is DOUBLE by default, and a PostgreSQL `real` would make `price = 19.99` false
 *   (the float4 value widens to 19.9899997…), breaking gold queries that compare with literals.
 * - Display widths (`INT(11)`) are dropped; UNSIGNED widens (INT UNSIGNED → bigint, BIGINT UNSIGNED → numeric(20)).
 * - CHAR(n) becomes varchar(n): MySQL returns CHAR values without trailing spaces, PostgreSQL char(n)
 *   would return them padded to n characters, so result sets would differ.
 * - TINYINT(1) stays a small integer (its values are 0/1 numbers in MySQL, not booleans).
 * - DATETIME and TIMESTAMP become `timestamp` (without time zone: the data carries none); YEAR → smallint.
 * - ENUM/SET become text; BLOB/BINARY types bytea; JSON jsonb.
 * Returns `undefined` for an unknown type so the caller can report it (and fall back to text).
 */
export function translateMysqlType(mysqlType: string): string | undefined {
  const match = /^([A-Z]+(?: PRECISION| VARYING)?)(?:\(([^)]*)\))?((?: (?:UNSIGNED|SIGNED|ZEROFILL))*)$/.exec(
    mysqlType.trim().toUpperCase().replace(/\s+/g, " ").replace(/ \(/, "("),
  );
  if (match === null) return undefined;
  const base = match[1]!;
  const argumentsList = (match[2] ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "");
  const unsigned = /UNSIGNED/.test(match[3] ?? "");
  const length = argumentsList[0];

  switch (base) {
    case "TINYINT":
    case "SMALLINT":
      return unsigned && base === "SMALLINT" ? "integer" : "smallint";
    case "MEDIUMINT":
      return "integer";
    case "INT":
    case "INTEGER":
      return unsigned ? "bigint" : "integer";
    case "BIGINT":
      return unsigned ? "numeric(20)" : "bigint";
    case "DECIMAL":
    case "DEC":
    case "NUMERIC":
    case "FIXED":
      if (argumentsList.length === 0) return "numeric";
      return `numeric(${argumentsList.join(",")})`;
    case "FLOAT":
    case "REAL":
    case "DOUBLE":
    case "DOUBLE PRECISION":
      return "double precision";
    case "BOOL":
    case "BOOLEAN":
      return "boolean";
    case "BIT":
      return length === undefined || length === "1" ? "boolean" : `bit varying(${length})`;
    case "CHAR":
    case "NCHAR":
    case "CHARACTER":
      return `varchar(${length ?? "1"})`;
    case "VARCHAR":
    case "NVARCHAR":
    case "CHARACTER VARYING":
      return length === undefined ? "varchar" : `varchar(${length})`;
    case "TINYTEXT":
    case "TEXT":
    case "MEDIUMTEXT":
    case "LONGTEXT":
    case "ENUM":
    case "SET":
      return "text";
    case "DATE":
      return "date";
    case "DATETIME":
    case "TIMESTAMP":
      return "timestamp";
    case "TIME":
      return "time";
    case "YEAR":
      return "smallint";
    case "BINARY":
    case "VARBINARY":
    case "TINYBLOB":
    case "BLOB":
    case "MEDIUMBLOB":
    case "LONGBLOB":
      return "bytea";
    case "JSON":
      return "jsonb";
    default:
      return undefined;
  }
}

/** Whether values of this PostgreSQL type are text (an empty CSV field then loads as '' rather than NULL). */
export function isTextualType(postgresType: string): boolean {
  return /^(text|varchar)/.test(postgresType);
}
