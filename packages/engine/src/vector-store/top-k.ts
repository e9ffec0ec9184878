/**
 * Keeps the `limit` best-scoring entries of a stream in a binary min-heap: O(n log k) for n offers,
 * no sort of the whole candidate list. Ties are broken by `key` (smaller key ranks higher) so results
 * are deterministic.
 */
export class TopK<Value> {
  private readonly scores: number[] = [];
  private readonly keys: string[] = [];
  private readonly values: Value[] = [];
  constructor(private readonly limit: number) {}

  /** Offers one entry; kept only if it ranks among the best `limit` seen so far. */
  offer(score: number, key: string, value: Value): void {
    if (this.limit <= 0) return;
    if (this.scores.length < this.limit) {
      this.scores.push(score);
      this.keys.push(key);
      this.values.push(value);
      this.siftUp(this.scores.length - 1);
      return;
    }
    if (!this.ranksAbove(score, key, 0)) return;
    this.scores[0] = score;
    this.keys[0] = key;
    this.values[0] = value;
    this.siftDown(0);
  }

  /** The kept entries, best first. */
  sorted(): { score: number; key: string; value: Value }[] {
    const entries = this.scores.map((score, position) => ({
      score,
      key: this.keys[position]!,
      value: this.values[position]!,
    }));
    return entries.sort((left, right) => right.score - left.score || compareKeys(left.key, right.key));
  }

  /** Whether (score, key) ranks strictly above the entry at `position`. */
  private ranksAbove(score: number, key: string, position: number): boolean {
    const other = this.scores[position]!;
    return score > other || (score === other && compareKeys(key, this.keys[position]!) < 0);
  }

  private siftUp(start: number): void {
    let position = start;
    while (position > 0) {
      const parent = (position - 1) >> 1;
      if (!this.ranksAbove(this.scores[parent]!, this.keys[parent]!, position)) return;
      this.swap(position, parent);
      position = parent;
    }
  }

  private siftDown(start: number): void {
    let position = start;
    const size = this.scores.length;
    for (;;) {
      const left = 2 * position + 1;
      const right = left + 1;
      let worst = position;
      if (left < size && !this.ranksAbove(this.scores[left]!, this.keys[left]!, worst)) worst = left;
      if (right < size && !this.ranksAbove(this.scores[right]!, this.keys[right]!, worst)) worst = right;
      if (worst === position) return;
      this.swap(position, worst);
      position = worst;
    }
  }

  private swap(first: number, second: number): void {
    [this.scores[first], this.scores[second]] = [this.scores[second]!, this.scores[first]!];
    [this.keys[first], this.keys[second]] = [this.keys[second]!, this.keys[first]!];
    [this.values[first], this.values[second]] = [this.values[second]!, this.values[first]!];
  }
}

function compareKeys(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
