/**
 * Lenient mode sets bad lines aside instead of stopping: each goes to a reject file (`<output>.rejects.tsv`)
 * with its file, line number and reason, and is counted. Nothing is dropped silently.
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

  add(r: Reject): void {
    this.count++;
    const kind = r.reason.replace(/"[^"]*"/g, '"…"').replace(/\d+/g, "N");
    this.byReason.set(kind, (this.byReason.get(kind) ?? 0) + 1);
    if (this.kept.length < 100) this.kept.push(r);
    // Backpressure is not awaited here (rejects are few); a write failure surfaces in close().
    this.out?.write(`${field(r.file)}\t${r.line}\t${field(r.reason)}\t${field(r.raw)}\n`)?.catch(() => {});
  }

  /** Write the reject file (also when empty, so a run always leaves one to check). */
  async close(): Promise<void> {
    await this.out?.commit();
  }

  async abort(): Promise<void> {
    await this.out?.abort();
  }
}
