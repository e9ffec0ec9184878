import type { OwnerFacts, RoutineFacts } from "./function-policy";

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
