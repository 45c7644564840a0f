/**
 * The line structure of a block of bytes, found by a WebAssembly scanner (./line-scan.wat): for each line its
 * start and end, its tabs, its other control bytes, and hashes of its first and sixth fields (an AOL row's user
 * and a classified row's category, which the reader interns). The raw-row reader (./rows.ts) asks it for every
 * block, so it is the hottest loop of every streaming command. A measurement chose WebAssembly: JavaScript
 * found the control bytes four at a time, then walked them line by line and hashed the two fields; one SIMD
 * compare per 16 bytes, with the walk and the hashes in the same loop, took whole commands on the classified AOL
 * subset from 0.39 to 0.30 CPU-s (`anonymize --method identity`), 0.68 to 0.62 (swap, k = 3) and 0.52 to 0.47
 * (`stats`) — medians of 7 alternated runs. test/log/line-scan.test.ts checks it
 * against a byte loop, and that the binary is what the text compiles to.
 */

import { WASM_BASE64 } from "./line-scan-wasm.ts";
import { BLOCK_BYTES } from "./lines.ts";

/** Lines recorded per call of the scanner (their records are read before the next call). */
const LINES_PER_CALL = 4096;
/** i32 per line record. */
export const RECORD = 16;
/** Offsets in a line record, in i32 (line-scan.wat). */
export const START = 0;
export const END = 1;
export const TABS = 2;
export const OTHERS = 3;
export const LAST_OTHER = 4;
/** The first of its (at most 8) recorded tabs. */
export const TAB = 5;
export const FIRST_HASH = 13;
export const SIXTH_HASH = 14;

interface Exports {
  lines(pos: number, size: number, rec: number, max: number): number;
  next: { value: number };
}

/** The part of the WebAssembly API used here (Node has it; the project's `lib`, without the DOM, has no types for it). */
interface WasmApi {
  Memory: new (descriptor: { initial: number }) => { buffer: ArrayBuffer };
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: unknown };
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/**
 * A scanner with its own memory: a copy of the block it reads and the records it writes. The copy costs ~3 CPU-ms
 * over the AOL subset's 39 MB; reading the file into this memory instead would tie every reader's buffer (and the
 * row writer's, which shares memory with it) to the scanner. One per thread: a block is scanned synchronously, so
 * the readers of one thread (the row sort's merge reads many runs) take turns.
 */
export class LineScanner {
  /** The records of the last call of {@link lines}, {@link RECORD} i32 each. */
  readonly records: Int32Array;
  private readonly bytes: Uint8Array;
  private readonly exports: Exports;
  private readonly recordsAt: number;
  private size = 0;

  constructor(
    capacity = BLOCK_BYTES,
    private readonly linesPerCall = LINES_PER_CALL,
  ) {
    // The block, 16 bytes the scanner may read past it, then the records (64-byte aligned).
    this.recordsAt = (capacity + 16 + 63) & ~63;
    const bytes = this.recordsAt + linesPerCall * RECORD * 4;
    const memory = new wasm.Memory({ initial: Math.ceil(bytes / 65536) });
    const module = new wasm.Module(Buffer.from(WASM_BASE64, "base64"));
    this.exports = new wasm.Instance(module, { env: { memory } }).exports as unknown as Exports;
    this.bytes = new Uint8Array(memory.buffer, 0, capacity);
    this.records = new Int32Array(memory.buffer, this.recordsAt, linesPerCall * RECORD);
  }

  /** Take `block` (at most the capacity) as the bytes the next calls of {@link lines} read. */
  load(block: Uint8Array): void {
    if (block.length > this.bytes.length)
      throw new Error(`a block of ${block.length} bytes: the scanner holds ${this.bytes.length}`);
    this.bytes.set(block);
    this.size = block.length;
  }

  /**
   * Record the lines from `pos` (a line's start) into {@link records}; returns how many. Then {@link next} is
   * where the next line starts, or past the end (size + 1) when the block's last line was recorded.
   */
  lines(pos: number): number {
    return this.exports.lines(pos, this.size, this.recordsAt, this.linesPerCall);
  }

  get next(): number {
    return this.exports.next.value;
  }
}

let shared: LineScanner | undefined;

/** This thread's scanner. */
export function lineScanner(): LineScanner {
  shared ??= new LineScanner();
  return shared;
}
