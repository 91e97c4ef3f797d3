// A binary max-heap of items with numeric priorities, used by the runner's call gate and the simulator's sweep.

/** Max-priority queue; equal priorities leave in insertion order. */
export class PriorityQueue<T> {
  private heap: { item: T; priority: number; seq: number }[] = [];
  private seq = 0;

  get size(): number {
    return this.heap.length;
  }

  private before(i: number, j: number): boolean {
    const a = this.heap[i];
    const b = this.heap[j];
    return a.priority > b.priority || (a.priority === b.priority && a.seq < b.seq);
  }

  private swap(i: number, j: number): void {
    [this.heap[i], this.heap[j]] = [this.heap[j], this.heap[i]];
  }

  push(item: T, priority: number): void {
    this.heap.push({ item, priority, seq: this.seq++ });
    this.up(this.heap.length - 1);
  }

  pop(): T | undefined {
    if (this.heap.length === 0) return undefined;
    const top = this.heap[0].item;
    this.removeAt(0);
    return top;
  }

  /** Removes the entry holding `item`; true if found. */
  remove(item: T): boolean {
    const i = this.heap.findIndex((e) => e.item === item);
    if (i < 0) return false;
    this.removeAt(i);
    return true;
  }

  private removeAt(i: number): void {
    const last = this.heap.pop()!;
    if (i === this.heap.length) return;
    this.heap[i] = last;
    this.up(i);
    this.down(i);
  }

  private up(i: number): void {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.before(i, p)) break;
      this.swap(i, p);
      i = p;
    }
  }

  private down(i: number): void {
    const n = this.heap.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < n && this.before(l, m)) m = l;
      if (r < n && this.before(r, m)) m = r;
      if (m === i) return;
      this.swap(i, m);
      i = m;
    }
  }
}
