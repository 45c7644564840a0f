/**
 * Plain line files of querymask's own temporary data (sorted runs): read in blocks of lines and written in
 * pieces, with no line-length limit and no parsing (the log reader's checks are for input, not for what we wrote).
 */
import { createReadStream } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { StringDecoder } from "node:string_decoder";
import { MinHeap } from "../util/min-heap.ts";

/** The lines of `file` (written by {@link LineFileWriter}: each ends in a newline), in blocks. */
export async function* readLineFile(file: string): AsyncGenerator<string[]> {
  const decoder = new StringDecoder("utf8");
  let carry = "";
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) {
    const text = carry + decoder.write(chunk as Buffer);
    const last = text.lastIndexOf("\n");
    if (last < 0) {
      carry = text;
      continue;
    }
    carry = text.slice(last + 1);
    yield text.slice(0, last).split("\n");
  }
  const rest = carry + decoder.end();
  if (rest !== "") yield [rest];
}

/** Lines appended to a new file, joined into pieces of about a MiB before each write. */
export class LineFileWriter {
  private lines: string[] = [];
  private chars = 0;

  private constructor(private readonly file: FileHandle) {}

  static async create(path: string): Promise<LineFileWriter> {
    return new LineFileWriter(await open(path, "w"));
  }

  /** Append a line (without its newline); await the result when it is a promise. */
  write(line: string): undefined | Promise<void> {
    this.lines.push(line);
    this.chars += line.length + 1;
    return this.chars < 1 << 20 ? undefined : this.flush();
  }

  private async flush(): Promise<void> {
    if (this.lines.length === 0) return;
    this.lines.push("");
    const text = this.lines.join("\n");
    this.lines = [];
    this.chars = 0;
    await this.file.write(text);
  }

  async close(): Promise<void> {
    try {
      await this.flush();
    } finally {
      await this.file.close();
    }
  }
}

/** One sorted run being merged: its lines, the current one and its key. */
interface Source {
  readonly order: number;
  readonly it: AsyncIterator<string[]>;
  lines: string[];
  i: number;
  key: number;
}

/**
 * Merge line files each sorted by `keyOf` (a number; equal keys: the earlier file's line first, so a merge of
 * runs cut from one stream in order is stable) and hand each line to `emit`, in order.
 */
export async function mergeLineFiles(
  files: readonly string[],
  keyOf: (line: string) => number,
  emit: (line: string) => undefined | Promise<void>,
): Promise<void> {
  const heap = new MinHeap<Source>((a, b) => a.key < b.key || (a.key === b.key && a.order < b.order));
  const advance = async (s: Source): Promise<boolean> => {
    while (++s.i >= s.lines.length) {
      const r = await s.it.next();
      if (r.done) return false;
      s.lines = r.value;
      s.i = -1;
    }
    s.key = keyOf(s.lines[s.i]!);
    return true;
  };
  for (const [order, file] of files.entries()) {
    const s: Source = { order, it: readLineFile(file)[Symbol.asyncIterator](), lines: [], i: -1, key: 0 };
    if (await advance(s)) heap.push(s);
  }
  while (heap.size > 0) {
    const s = heap.top();
    const behind = emit(s.lines[s.i]!);
    if (behind) await behind;
    heap.advanced(await advance(s));
  }
}

/** The number before a line's first tab (the sort key the runs are written with). */
export function leadingKey(line: string): number {
  return Number(line.slice(0, line.indexOf("\t")));
}

/**
 * Sorted runs merged at most `fanIn` at a time into one sorted file at `path` (runs removed as they are merged):
 * more runs than `fanIn` are first merged in groups into longer runs, keeping their order.
 */
export async function mergeRuns(
  runs: readonly string[],
  path: string,
  keyOf: (line: string) => number,
  fanIn: number,
  rm: (file: string) => Promise<void>,
  emit?: (line: string) => undefined | Promise<void>,
): Promise<void> {
  let level = runs;
  for (let round = 0; level.length > fanIn; round++) {
    const next: string[] = [];
    for (let g = 0; g < level.length; g += fanIn) {
      const to = `${path}.merge-${round}-${next.length}`;
      const w = await LineFileWriter.create(to);
      await mergeLineFiles(level.slice(g, g + fanIn), keyOf, (l) => w.write(l));
      await w.close();
      next.push(to);
    }
    await Promise.all(level.map(rm));
    level = next;
  }
  if (emit) await mergeLineFiles(level, keyOf, emit);
  else {
    const w = await LineFileWriter.create(path);
    await mergeLineFiles(level, keyOf, (l) => w.write(l));
    await w.close();
  }
  await Promise.all(level.map(rm));
}
