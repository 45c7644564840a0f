/**
 * Lenient mode sets bad lines aside instead of stopping: each goes to a reject file with its file, line number
 * and reason, and is counted. Nothing is dropped silently.
 *
 * A reject file holds raw input rows — the very data a release must not carry — so its default name says so:
 * `<output>.rejects.PRIVATE.tsv` ({@link defaultRejectsPath}), and the summary repeats it.
 */
import { AtomicTextFile } from "./atomic.ts";

export interface Reject {
  readonly file: string;
  readonly line: number;
  readonly reason: string;
  readonly raw: string;
}

/** Escape text so that it stays on one TSV field. */
function field(s: string): string {
  return s.replace(
    /[\\\t\n\r\0]/g,
    (c) => ({ "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r", "\0": "\\0" })[c]!,
  );
}

/** Where lenient mode puts rejects by default: beside `base` (the output), with a name that says "private". */
export function defaultRejectsPath(base: string | undefined): string {
  return base === undefined ? "rejects.PRIVATE.tsv" : `${base}.rejects.PRIVATE.tsv`;
}

export class RejectSink {
  private readonly out: AtomicTextFile | undefined;
  /** Rejects per reason, for the summary. */
  readonly byReason = new Map<string, number>();
  count = 0;

  /** With no path, rejects are only counted (and kept in `kept`, up to 100, for messages). */
  constructor(readonly path?: string) {
    this.out = path === undefined ? undefined : new AtomicTextFile(path);
    this.out?.write("file\tline\treason\tline_text\n");
  }

  readonly kept: Reject[] = [];
  /** Set while the reject file's buffer is full: readers wait on it ({@link RejectSink.backlog}). */
  private waiting: Promise<void> | undefined;
  private failure: unknown;

  add(r: Reject): void {
    this.count++;
    const kind = r.reason.replace(/"[^"]*"/g, '"…"').replace(/\d+/g, "N");
    this.byReason.set(kind, (this.byReason.get(kind) ?? 0) + 1);
    if (this.kept.length < 100) this.kept.push(r);
    if (this.failure !== undefined) throw this.failure;
    const p = this.out?.write(`${field(r.file)}\t${r.line}\t${field(r.reason)}\t${field(r.raw)}\n`);
    if (p && !this.waiting) {
      const w: Promise<void> = p.then(
        () => {
          if (this.waiting === w) this.waiting = undefined;
        },
        (e: unknown) => {
          this.failure = e;
        },
      );
      this.waiting = w;
    }
  }

  /**
   * Back-pressure: a promise to await when the reject file is behind (millions of bad lines), else undefined.
   * Rejects a write failure.
   */
  backlog(): Promise<void> | undefined {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    return this.waiting;
  }

  /** Write the reject file (also when empty, so a run always leaves one to check). */
  async close(): Promise<void> {
    await this.waiting;
    if (this.failure !== undefined) {
      await this.out?.abort();
      throw this.failure;
    }
    await this.out?.commit();
  }

  async abort(): Promise<void> {
    await this.out?.abort();
  }
}
