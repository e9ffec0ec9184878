/**
 * The catalog facts the function policy decides with (`load-function-policy.ts` reads them; pure types).
 */

/** How a function is reached without the statement naming it: see `ImplicitCall`. */
export type ImplicitCallKind = "io" | "cast" | "expression";

/** A role that owns a catalog object. */
export interface OwnerFacts {
  readonly name: string;
  /** `pg_roles.rolsuper`. */
  readonly superuser: boolean;
}

/** One function as `pg_proc` describes it. */
export interface RoutineFacts {
  readonly schema: string;
  readonly name: string;
  /** `pg_proc.provolatile`: immutable, stable or volatile. */
  readonly volatility: "i" | "s" | "v";
  /** The extension the function belongs to (`pg_depend` deptype `e`), or null. */
  readonly extension: string | null;
  /** True when its schema is in `current_schemas(true)`, so an unqualified name can resolve to it. */
  readonly onSearchPath: boolean;
  /**
   * True when one positional argument can call it (`(x).f` and `t.f` are `f(x)` and `f(t)`): at most one argument
   * without a default, at least one argument or variadic, and not taking `internal`. Unknown (undefined) counts as
   * true.
   */
  readonly acceptsOneArgument?: boolean;
  /** Its owner (`proowner`); unknown counts as untrusted. */
  readonly owner?: OwnerFacts;
  /** True when written in a language only a superuser can use (`lanpltrusted` false: C, internal, plpython3u…). */
  readonly untrustedLanguage?: boolean;
  /**
   * Type OIDs of its result and arguments, for functions outside `pg_catalog`: a value of such a type may bring a
   * cast or input/output function along (`TypeFacts.oid`). Default none.
   */
  readonly signatureTypes?: readonly number[];
}

/** A function a type brings along, with what brings it (for messages and `implicitCallRefusal`). */
export interface TypeRoutine extends RoutineFacts {
  /** What runs it, e.g. `cast from att.money2 to text`, `CHECK constraint positive of domain att.amount`. */
  readonly via?: string;
  /** `io` (input, output, receive, send), `cast` or `expression` (a domain's CHECK). Default `expression`. */
  readonly kind?: ImplicitCallKind;
  /** Owner of the type that brings it (for a part — a domain's base, an attribute — that part's type). */
  readonly chosenBy?: OwnerFacts;
}

/**
 * A type and the functions PostgreSQL may run for a value of it or a value coerced to it (`x::t`, `CAST`,
 * `t 'literal'`, `t(x)`, `(x).t`, a column of it): its input and output functions, the functions of casts into and
 * out of it (a cast belongs to the types created after initdb among its two, to both when neither was), the functions
 * and operators its domain `CHECK` constraints call, and the same for the domain's base types, an array's element
 * type, a composite type's attributes and a range's subtype. Only types with at least one routine outside
 * `pg_catalog`, volatile, or in a dangerous category (CHECKs and casts) are listed.
 */
export interface TypeFacts {
  readonly schema: string;
  readonly name: string;
  readonly onSearchPath: boolean;
  readonly routines: readonly TypeRoutine[];
  /** `pg_type.oid`, for relation columns and function signatures (`FunctionPolicy.typeById`). */
  readonly oid?: number;
  readonly owner?: OwnerFacts;
}

/** One operator and the function that implements it (`pg_operator.oprcode`). */
export interface OperatorFacts {
  readonly schema: string;
  /** The operator symbol, e.g. `=` or `%`. */
  readonly name: string;
  readonly onSearchPath: boolean;
  readonly implementation: RoutineFacts;
  /** Its owner (`oprowner`). */
  readonly owner?: OwnerFacts;
  /** Its left operand's type (`format_type`); absent for a prefix operator or when unknown. */
  readonly leftType?: string;
  /** Its right operand's type (`format_type`). */
  readonly rightType?: string;
}

/** A possibly schema-qualified name as the parse tree gives it. */
export interface QualifiedName {
  readonly schema?: string;
  readonly name: string;
}

/**
 * What reading one relation brings along, as the catalog records it (`load-relation-facts.ts`): every function a
 * view's body or a row-level security policy calls (PostgreSQL's own, found in the stored expression, and every other,
 * from `pg_depend`; an aggregate with its support functions), the types its expressions and columns use, and the
 * relations its body or policies read. Only relations that reach a function that may be refused are listed, and only
 * the edges that lead there.
 */
export interface RelationFacts {
  readonly oid: number;
  readonly schema: string;
  readonly name: string;
  /** `view`, `table`, `partitioned table`, `materialized view` or `foreign table`. */
  readonly kind: string;
  readonly onSearchPath: boolean;
  readonly owner?: OwnerFacts;
  readonly edges: readonly RelationEdge[];
}

/** One thing a relation brings along; `via` says where (`its view body`, `its row-level security policy p`, `column amt`). */
export type RelationEdge =
  | { readonly kind: "routine"; readonly via: string; readonly routine: RoutineFacts }
  | { readonly kind: "type"; readonly via: string; readonly typeOid: number }
  | { readonly kind: "relation"; readonly via: string; readonly relationOid: number };
