import { loadModule, parseSync } from "libpg-query";
import { SqlValidationError } from "../errors/database-errors";
import type { FunctionPolicy, OperatorFacts, OwnerFacts, QualifiedName, RoutineFacts } from "./function-policy";
import { relationProblems, typeValueProblems } from "./relation-problems";
import { relationReferences, routineReferences, temporarySchemaReferences } from "./routine-references";

let moduleLoaded: Promise<void> | undefined;
let parserReady = false;

/** Loads the PostgreSQL parser (WASM) once; `validateSql` awaits it. */
export function loadSqlParser(): Promise<void> {
  moduleLoaded ??= loadModule().then(() => {
    parserReady = true;
  });
  return moduleLoaded;
}

/** True once `loadSqlParser()` has settled: the synchronous parses (`parseSync`) may run. */
export function sqlParserReady(): boolean {
  return parserReady;
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

const systemSchemas = new Set(["pg_catalog", "information_schema"]);

/** ` (owner x)` for an object outside PostgreSQL's own schemas, where who made it matters; empty otherwise. */
function ownerNote(schema: string, owner: OwnerFacts | undefined): string {
  return systemSchemas.has(schema) ? "" : ` (owner ${owner?.name ?? "unknown"})`;
}

function typeProblems(policy: FunctionPolicy, reference: QualifiedName, written: string): string[] {
  const problems: string[] = [];
  for (const type of policy.types(reference)) {
    for (const routine of type.routines) {
      const reason = policy.refusal(routine);
      if (reason !== undefined) {
        const how = [
          routine.via,
          ...(systemSchemas.has(routine.schema) ? [] : [`owner ${routine.owner?.name ?? "unknown"}`]),
        ];
        problems.push(
          `${written === type.name ? "" : `${written}: `}a cast to type ${type.schema}.${type.name} runs ${routine.schema}.${routine.name}(), which ${reason} (${how.filter(Boolean).join("; ")})`,
        );
      }
    }
  }
  return problems;
}

/**
 * Why an allowed function outside pg_catalog brings refused code along through the types of its result and
 * arguments (a cast or input/output function of a type another role made): `typeValueProblems` of each listed type.
 */
function signatureProblems(policy: FunctionPolicy, routine: RoutineFacts): string[] {
  return (routine.signatureTypes ?? []).flatMap((oid) => {
    const type = policy.typeById(oid);
    return type === undefined
      ? []
      : typeValueProblems(policy, type, `function ${routine.schema}.${routine.name}() returns or takes`);
  });
}

/**
 * For an unqualified function name that also names a function of pg_catalog: the refused candidate comes from another
 * schema on the search path and shadows it; say so and how to avoid it. Empty otherwise.
 */
function shadowNote(policy: FunctionPolicy, reference: QualifiedName, schema: string): string {
  if (reference.schema !== undefined || systemSchemas.has(schema)) return "";
  if (policy.functions({ schema: "pg_catalog", name: reference.name }).length === 0) return "";
  return `; it shadows pg_catalog.${reference.name}() because schema ${schema} is on the search path: write pg_catalog.${reference.name}(…) or take ${schema} off the search path`;
}

function operatorProblem(reference: QualifiedName, written: string, operator: OperatorFacts, reason: string): string {
  const routine = operator.implementation;
  const operands =
    operator.rightType === undefined ? "" : `(${[operator.leftType ?? "NONE", operator.rightType].join(", ")})`;
  const named = systemSchemas.has(operator.schema)
    ? ""
    : `: it is operator ${operator.schema}.${operator.name}${operands}${ownerNote(operator.schema, operator.owner)}`;
  const shadow =
    reference.schema !== undefined || systemSchemas.has(operator.schema)
      ? ""
      : `; schema ${operator.schema} is on the search path, so nlq refuses every unqualified ${reference.name} (PostgreSQL may pick this one by its operand types): write OPERATOR(pg_catalog.${reference.name}), or take ${operator.schema} off the search path`;
  return `operator ${written} calls ${routine.schema}.${routine.name}(), which ${reason}${named}${shadow}`;
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
        if (reason !== undefined) {
          problems.push(
            `function ${routine.schema}.${routine.name}() ${reason}${ownerNote(routine.schema, routine.owner)}${shadowNote(policy, reference, routine.schema)}`,
          );
        } else problems.push(...signatureProblems(policy, routine));
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
        const reason = policy.refusal(operator.implementation);
        if (reason !== undefined) problems.push(operatorProblem(reference, written, operator, reason));
        else problems.push(...signatureProblems(policy, operator.implementation));
      }
    }
  }
  for (const reference of relationReferences(statement)) problems.push(...relationProblems(policy, reference));
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
 * unqualified name can resolve to on the search path, or the qualified one, must be allowed (a refusal of a
 * candidate another schema on the search path supplies — a shadowing `=` — names it, its owner and the way out).
 * What PostgreSQL runs because the statement reads a relation is checked too (`relationProblems`,
 * docs/decisions/2026-12-01-what-postgresql-executes.md): a view's body, row-level security policies, the casts and
 * input/output functions of its columns' types, recursively, with code other roles chose allowed only where a call by
 * name would be; so are the types an allowed function outside pg_catalog returns or takes. Names the policy does not
 * know are left to PostgreSQL (it reports them).
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
  // What PostgreSQL would run that the policy refuses, each naming the function (and the object bringing it along).
  const code = [...new Set(functionProblems(statement, policy))];
  if (problems.length > 0 || code.length > 0) {
    const parts = [
      ...(problems.length > 0
        ? [`only read-only queries are allowed; found ${[...new Set(problems)].join(", ")}`]
        : []),
      ...(code.length > 0
        ? [`refused before it ran: it would run code the function policy refuses: ${code.join("; ")}`]
        : []),
    ];
    throw new SqlValidationError(parts.join("; and "), { sql, code: "25006" });
  }
  return { sql };
}
