import { loadModule, parseSync } from "libpg-query";
import { SqlValidationError } from "../errors/database-errors";
import type { FunctionPolicy, QualifiedName } from "./function-policy";
import { routineReferences, temporarySchemaReferences } from "./routine-references";

let moduleLoaded: Promise<void> | undefined;

/** Loads the PostgreSQL parser (WASM) once; `validateSql` awaits it. */
export function loadSqlParser(): Promise<void> {
  moduleLoaded ??= loadModule();
  return moduleLoaded;
}

/** Statements that modify data wherever they appear in the tree (data-modifying CTEs included). */
const writingNodes = new Set(["InsertStmt", "UpdateStmt", "DeleteStmt", "MergeStmt"]);

export interface ValidatedSql {
  /** The statement without trailing semicolons and whitespace. */
  readonly sql: string;
}

function visit(node: unknown, onNode: (key: string, value: Record<string, unknown>) => void): void {
  if (Array.isArray(node)) {
    for (const item of node) visit(item, onNode);
    return;
  }
  if (node === null || typeof node !== "object") return;
  for (const [key, value] of Object.entries(node)) {
    if (value !== null && typeof value === "object" && !Array.isArray(value))
      onNode(key, value as Record<string, unknown>);
    visit(value, onNode);
  }
}

function typeProblems(policy: FunctionPolicy, reference: QualifiedName, written: string): string[] {
  const problems: string[] = [];
  for (const type of policy.types(reference)) {
    for (const routine of type.routines) {
      const reason = policy.refusal(routine);
      if (reason !== undefined) {
        problems.push(
          `${written === type.name ? "" : `${written}: `}a cast to type ${type.schema}.${type.name} runs ${routine.schema}.${routine.name}(), which ${reason}`,
        );
      }
    }
  }
  return problems;
}

function functionProblems(statement: unknown, policy: FunctionPolicy): string[] {
  const problems: string[] = [];
  for (const schema of new Set(temporarySchemaReferences(statement))) {
    problems.push(`a reference to the session's temporary schema ${schema}`);
  }
  for (const reference of routineReferences(statement)) {
    const written = reference.schema === undefined ? reference.name : `${reference.schema}.${reference.name}`;
    if (reference.kind === "function") {
      for (const routine of policy.functions(reference)) {
        const reason = policy.refusal(routine);
        if (reason !== undefined) problems.push(`function ${routine.schema}.${routine.name}() ${reason}`);
      }
    } else if (reference.kind === "column-notation") {
      // PostgreSQL reads `(x).f` and `t.f` as `f(x)` / `f(t)` when f is no field or column, or as the cast `x::f`.
      for (const routine of policy.functions(reference)) {
        if (routine.acceptsOneArgument === false) continue;
        const reason = policy.refusal(routine);
        if (reason !== undefined) {
          problems.push(
            `column notation .${reference.name} can call ${routine.schema}.${routine.name}(), which ${reason}`,
          );
        }
      }
      problems.push(...typeProblems(policy, reference, `column notation .${reference.name}`));
    } else if (reference.kind === "type") {
      problems.push(...typeProblems(policy, reference, written));
    } else {
      for (const operator of policy.operators(reference)) {
        const routine = operator.implementation;
        const reason = policy.refusal(routine);
        if (reason !== undefined) {
          problems.push(`operator ${written} calls ${routine.schema}.${routine.name}(), which ${reason}`);
        }
      }
    }
  }
  return problems;
}

/**
 * Accepts exactly one read-only query — `SELECT`, `WITH … SELECT`, `VALUES` or `TABLE` — parsed by PostgreSQL's own
 * parser (libpg-query). Refused with `SqlValidationError` before execution: syntax errors (42601), several or no
 * statements, any other statement kind (DML, DDL, `EXPLAIN`, `SET`, `COPY`, …), data-modifying CTEs,
 * `SELECT … INTO`, locking clauses (`FOR UPDATE`/`FOR SHARE`), and code that `policy` refuses (25006, naming the
 * function and why) as PostgreSQL would resolve it (docs/decisions/2026-11-27-resolved-call-policy.md): function
 * calls, operators (written, or the `=` of `CASE x WHEN`), column and field notation (`(x).f`, `t.f` are `f(x)`, `f(t)`
 * unless `f` is a column, so any one-argument function named `f` counts), casts to types whose input, cast or domain
 * `CHECK` functions are refused, and anything in the session's temporary schema (`pg_temp`). Every candidate an
 * unqualified name can resolve to on the search path, or the qualified one, must be allowed. Names the policy does
 * not know are left to PostgreSQL (it reports them).
 * `EXPLAIN` is refused because it cannot be row-capped by wrapping and `EXPLAIN ANALYZE` executes.
 * PostgreSQL's read-only transaction remains the real guarantee; this check gives clear errors early.
 */
export async function validateSql(text: string, policy: FunctionPolicy): Promise<ValidatedSql> {
  await loadSqlParser();
  const sql = text
    .trim()
    .replace(/(\s*;)+$/, "")
    .trim();
  if (sql === "") throw new SqlValidationError("the generated SQL is empty", { sql: text });
  if (sql.includes("\0")) {
    // The wire protocol ends the statement text at a NUL byte: refuse rather than send less than was validated.
    throw new SqlValidationError("the generated SQL contains a NUL character", { sql, code: "42601" });
  }
  let tree: { stmts?: Array<{ stmt?: Record<string, unknown> }> };
  try {
    tree = parseSync(sql) as typeof tree;
  } catch (error) {
    throw new SqlValidationError(`syntax error in generated SQL: ${(error as Error).message}`, {
      sql,
      code: "42601",
      cause: error,
    });
  }
  const statements = tree.stmts ?? [];
  if (statements.length !== 1) {
    throw new SqlValidationError(`expected exactly one statement, found ${statements.length}`, { sql, code: "42601" });
  }
  const statement = statements[0]?.stmt ?? {};
  const kind = Object.keys(statement)[0] ?? "(none)";
  if (kind !== "SelectStmt") {
    throw new SqlValidationError(`only read-only queries are allowed, not ${kind}`, { sql, code: "25006" });
  }
  const problems: string[] = [];
  visit(statement, (key, value) => {
    if (writingNodes.has(key)) problems.push(`data-modifying ${key.replace("Stmt", "").toUpperCase()}`);
    if (key === "SelectStmt" && value.intoClause) problems.push("SELECT … INTO");
    if (key === "SelectStmt" && Array.isArray(value.lockingClause) && value.lockingClause.length > 0) {
      problems.push("a locking clause (FOR UPDATE/SHARE)");
    }
  });
  problems.push(...functionProblems(statement, policy));
  if (problems.length > 0) {
    throw new SqlValidationError(`only read-only queries are allowed; found ${[...new Set(problems)].join(", ")}`, {
      sql,
      code: "25006",
    });
  }
  return { sql };
}
