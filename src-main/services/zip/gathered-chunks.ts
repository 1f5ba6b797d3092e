/**
 * A deflated entry's compressed bytes as the network chunks they came in, not joined: read at
 * offsets across them, where its data descriptor is looked for (zip-descriptors.ts), then handed
 * to its inflate lane as they are. Joining them into one buffer copied every byte of the entry.
 */
export class GatheredChunks {
  private views: Buffer[] = [];
  /** Where each view starts among the bytes gathered. */
  private starts: number[] = [];
  length = 0;

  add(view: Buffer): void {
    this.views.push(view);
    this.starts.push(this.length);
    this.length += view.length;
  }

  /** The view that holds byte `at`: searched from the last, where a descriptor is looked for. */
  private viewAt(at: number): number {
    let i = this.views.length - 1;
    while (i > 0 && this.starts[i]! > at) i--;
    return i;
  }

  private byte(at: number): number {
    const i = this.viewAt(at);
    return this.views[i]![at - this.starts[i]!]!;
  }

  u32(at: number): number {
    const i = this.viewAt(at);
    const view = this.views[i]!;
    const o = at - this.starts[i]!;
    if (o + 4 <= view.length) return view.readUInt32LE(o);
    // Across two views.
    return (
      (this.byte(at) | (this.byte(at + 1) << 8) | (this.byte(at + 2) << 16) | (this.byte(at + 3) << 24)) >>> 0
    );
  }

  /** Where "PK" next starts, at or after `from`, within a view or across two; -1 where it does not. */
  nextPK(from: number): number {
    for (let i = this.viewAt(from); i < this.views.length; i++) {
      const view = this.views[i]!;
      const start = this.starts[i]!;
      const local = Math.max(0, from - start);
      const found = view.indexOf('PK', local);
      if (found >= 0) return start + found;
      const last = view.length - 1;
      if (last >= local && view[last] === 0x50 && this.views[i + 1]?.[0] === 0x4b) return start + last;
    }
    return -1;
  }

  /** Bytes `from` to `to`, copied into a buffer of their own. */
  copy(from: number, to: number): Buffer {
    const out = Buffer.allocUnsafe(Math.max(0, to - from));
    for (let i = this.viewAt(from), at = from; at < to; i++) {
      const view = this.views[i]!;
      const o = at - this.starts[i]!;
      const n = Math.min(view.length - o, to - at);
      view.copy(out, at - from, o, o + n);
      at += n;
    }
    return out;
  }

  /** The views of the first `end` bytes, the last cut short where `end` falls inside it. */
  viewsUpTo(end: number): Buffer[] {
    const out: Buffer[] = [];
    for (let i = 0; i < this.views.length && this.starts[i]! < end; i++)
      out.push(this.views[i]!.subarray(0, end - this.starts[i]!));
    return out;
  }
}
