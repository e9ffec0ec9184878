import { describe, expect, it } from "vitest";
import { ColumnVectorIndex } from "../crush/dense-column-ranking";
import { SparseVectorIndex } from "./sparse-vector-index";

function randomSparse(seed: number, dimensions: number, nonZero: number): number[] {
  let state = seed;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  const vector = new Array<number>(dimensions).fill(0);
  for (let count = 0; count < nonZero; count++) vector[Math.floor(next() * dimensions)] = next() - 0.3;
  return vector;
}

describe("sparse vector index", () => {
  it("gives the dense exact scan's similarities and ranking", () => {
    const vectors = Array.from({ length: 300 }, (_, index) => randomSparse(index + 1, 256, 12));
    vectors.push(new Array<number>(256).fill(0));
    const dense = new ColumnVectorIndex(vectors);
    const sparse = new SparseVectorIndex(vectors);
    for (const seed of [1001, 1002, 1003]) {
      const query = randomSparse(seed, 256, 20);
      const expected = dense.similarities(query);
      const actual = sparse.similarities(query);
      expect(Array.from(actual).every((value, index) => Math.abs(value - expected[index]!) < 1e-12)).toBe(true);
      expect(sparse.rank(query, 25)).toEqual(dense.rank(query, 25));
      expect(sparse.rank(query)).toEqual(dense.rank(query));
    }
    expect(sparse.size).toBe(301);
  });
});
