import { TopK } from "./top-k";
import { matchesFilter } from "./vector-filter";
import { dotProductAt } from "./vector-math";
import type { VectorFilter, VectorPayload, VectorSearchResult } from "./vector-store";

/**
 * The in-memory points of one collection: unit vectors packed row by row into one growable
 * Float32Array, so an exact search is a single pass of dot products over contiguous memory.
 * Deleting moves the last row into the hole (order is not meaningful).
 */
export class EmbeddedCollection {
  private vectors: Float32Array;
  private readonly ids: string[] = [];
  private readonly payloads: VectorPayload[] = [];
  private readonly positionById = new Map<string, number>();

  constructor(readonly dimensions: number) {
    this.vectors = new Float32Array(dimensions * 64);
  }

  get size(): number {
    return this.ids.length;
  }

  /** Inserts or replaces one point; `unitVector` must already be normalised and `dimensions` long. */
  set(id: string, unitVector: Float32Array, payload: VectorPayload): void {
    const existing = this.positionById.get(id);
    const position = existing ?? this.ids.length;
    if (existing === undefined) {
      this.reserve(position + 1);
      this.ids.push(id);
      this.payloads.push(payload);
      this.positionById.set(id, position);
    } else {
      this.payloads[position] = payload;
    }
    this.vectors.set(unitVector, position * this.dimensions);
  }

  /** Removes one point; returns whether it existed. */
  remove(id: string): boolean {
    const position = this.positionById.get(id);
    if (position === undefined) return false;
    const last = this.ids.length - 1;
    if (position !== last) {
      const lastId = this.ids[last]!;
      this.ids[position] = lastId;
      this.payloads[position] = this.payloads[last]!;
      this.vectors.copyWithin(position * this.dimensions, last * this.dimensions, (last + 1) * this.dimensions);
      this.positionById.set(lastId, position);
    }
    this.ids.pop();
    this.payloads.pop();
    this.positionById.delete(id);
    return true;
  }

  /** Ids of the points whose payload matches the filter. */
  idsMatching(filter: VectorFilter | undefined): string[] {
    return this.ids.filter((_, position) => matchesFilter(this.payloads[position]!, filter));
  }

  /** Exact top-`limit` search by cosine similarity; `unitQuery` must be normalised. */
  search(unitQuery: Float32Array, limit: number, filter: VectorFilter | undefined): VectorSearchResult[] {
    const best = new TopK<number>(limit);
    const dimensions = this.dimensions;
    for (let position = 0; position < this.ids.length; position++) {
      const payload = this.payloads[position]!;
      if (!matchesFilter(payload, filter)) continue;
      best.offer(dotProductAt(unitQuery, this.vectors, position * dimensions), this.ids[position]!, position);
    }
    return best.sorted().map(({ score, key, value }) => ({ id: key, score, payload: this.payloads[value]! }));
  }

  private reserve(rows: number): void {
    if (rows * this.dimensions <= this.vectors.length) return;
    const grown = new Float32Array(Math.max(rows, this.ids.length * 2) * this.dimensions);
    grown.set(this.vectors);
    this.vectors = grown;
  }
}
