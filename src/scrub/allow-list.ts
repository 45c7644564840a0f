/**
 * An allow list: phrases the user knows are not identifiers — public figures above all (a newsroom's or a search
 * engine's own list of notable people), also a business's published phone number or a brand named after a
 * person. Presidio calls this an allow list; here it is matched on words, not on exact span text.
 *
 * A span the recognizers find is set aside when it lies within an occurrence of an allowed phrase in the query:
 * "steven curtis chapman lyrics" keeps the name when the list holds `steven curtis chapman`, and a span that only
 * touches an allowed phrase stays an identifier ("john smith" is scrubbed even when `smith` is allowed). A phrase
 * matches, as the bundled famous list does (data/scrub/famous-people.txt), also with `'s` or `s` on its last word
 * ("chapman's") and, for two words, reversed ("chapman, steven" is not two words; "chapman steven" is).
 *
 * The file: one phrase per line, `#` starts a comment line (so famous-people.txt's `# -- section` headings are
 * read as comments), blank lines ignored, letters lower-cased and runs of white space made one space. A phrase may
 * be followed by a tab and the ODP category it is filed under (`dale brickner TAB Sports`): the classifier then
 * places it there as the knowledge base places the people it knows (src/knowledge/extra-phrases.ts). A line
 * with no word (only punctuation), of more than {@link MAX_WORDS} words, or with something after the tab that is not
 * a category path is refused as `file:line: reason`.
 */
import { readFileSync } from "node:fs";
import { InputError } from "../util/errors.ts";
import { tokenize } from "./tokenize.ts";
import type { PiiSpan } from "./types.ts";

/** Longest allowed phrase, in words. */
export const MAX_WORDS = 12;

/** An allowed phrase filed under an ODP category by its list: `dale brickner TAB Sports`. */
export interface FiledPhrase {
  /** The phrase's words (as the scrubber's tokenizer splits them), lower case. */
  readonly words: readonly string[];
  /** The category as the list wrote it: `Sports`, `Arts/Music` or `Top/Arts/Music`. */
  readonly category: string;
  /** Its line in the list's file (0 when the list was not read from a file). */
  readonly line: number;
}

export class AllowList {
  private constructor(
    /** The phrases, each its words joined by one space. */
    private readonly phrases: ReadonlySet<string>,
    /** First word of a phrase → bit n set when a phrase of n words starts with it (bit 0 unused). */
    private readonly lengths: ReadonlyMap<string, number>,
    private readonly maxWords: number,
    /** The phrases the list files under a category, in its order. */
    readonly filed: readonly FiledPhrase[],
    /** The file it was read from, for messages. */
    readonly file: string | undefined,
  ) {}

  /**
   * The list of `entries`, each a phrase, or a phrase, a tab and the ODP category it is filed under (none may be
   * empty or longer than {@link MAX_WORDS} words). `lines`: each entry's line in `file`.
   */
  static of(entries: Iterable<string>, file?: string, lines?: readonly number[]): AllowList {
    const phrases = new Set<string>();
    const lengths = new Map<string, number>();
    const filed: FiledPhrase[] = [];
    let maxWords = 0;
    let i = 0;
    for (const entry of entries) {
      const tab = entry.indexOf("\t");
      const words = tokenize(tab < 0 ? entry : entry.slice(0, tab)).map((t) => t.text);
      if (words.length === 0 || words.length > MAX_WORDS)
        throw new RangeError(`allow list entry ${JSON.stringify(entry)}: 1 to ${MAX_WORDS} words`);
      const category = tab < 0 ? "" : entry.slice(tab + 1).trim();
      const phrase = words.join(" ");
      if (category !== "" && !phrases.has(phrase)) filed.push({ words, category, line: lines?.[i] ?? 0 });
      phrases.add(phrase);
      lengths.set(words[0]!, (lengths.get(words[0]!) ?? 0) | (1 << words.length));
      maxWords = Math.max(maxWords, words.length);
      i++;
    }
    return new AllowList(phrases, lengths, maxWords, filed, file);
  }

  /** The list in `text`, read from `file` (named in errors). */
  static parse(text: string, file: string): AllowList {
    const entries: string[] = [];
    const at: number[] = [];
    const lines = text.split(/\r?\n/);
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!.trim();
      if (line === "" || line.startsWith("#")) continue;
      const tab = line.indexOf("\t");
      const words = tokenize(tab < 0 ? line : line.slice(0, tab)).length;
      if (words === 0)
        throw new InputError(file, i + 1, "an allow-list line needs a word (letters or digits)");
      if (words > MAX_WORDS)
        throw new InputError(
          file,
          i + 1,
          `an allow-list phrase has at most ${MAX_WORDS} words (this one ${words})`,
        );
      if (tab >= 0 && !CATEGORY.test(line.slice(tab + 1).trim()))
        throw new InputError(
          file,
          i + 1,
          "after the tab comes the ODP category the phrase is filed under, such as Sports or Arts/Music",
        );
      entries.push(line);
      at.push(i + 1);
    }
    return AllowList.of(entries, file, at);
  }

  /** The list in the file at `path`. */
  static read(path: string): AllowList {
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch (e) {
      throw new InputError(
        path,
        undefined,
        `cannot read the allow list (${(e as NodeJS.ErrnoException).code ?? e})`,
      );
    }
    return AllowList.parse(text, path);
  }

  /** Number of distinct phrases. */
  get size(): number {
    return this.phrases.size;
  }

  /** Its size for a person: "1 phrase", "1,094 phrases". */
  describe(): string {
    const n = this.phrases.size;
    return `${n.toLocaleString("en")} phrase${n === 1 ? "" : "s"}`;
  }

  /**
   * The phrases, sorted, each with a tab and its category when the list files it (what a worker thread is given
   * to build the same list; the lines of `filed` are not kept).
   */
  entries(): string[] {
    const category = new Map(this.filed.map((f) => [f.words.join(" "), f.category]));
    return [...this.phrases].sort().map((p) => (category.has(p) ? `${p}\t${category.get(p)}` : p));
  }

  /** The `spans` of `text` that lie within no allowed phrase's occurrence (the same array when none does). */
  filter(text: string, spans: PiiSpan[]): PiiSpan[] {
    if (spans.length === 0 || this.phrases.size === 0) return spans;
    const occurrences = this.occurrences(text);
    if (occurrences.length === 0) return spans;
    const kept = spans.filter((s) => !occurrences.some(([from, to]) => s.start >= from && s.end <= to));
    return kept.length === spans.length ? spans : kept;
  }

  /** [start, end) character ranges of the allowed phrases in `text`, longest match first at each word. */
  private occurrences(text: string): [number, number][] {
    const t = tokenize(text);
    const out: [number, number][] = [];
    for (let i = 0; i < t.length; i++) {
      const word = t[i]!.text;
      // Lengths of the phrases that start with this word (a one-word phrase also as this word's bare form), and
      // whether a two-word phrase starts with the next one (this one and the next reversed)
      const here = (this.lengths.get(word) ?? 0) | ((this.lengths.get(bareOf(word)) ?? 0) & 2);
      const reversible = i + 1 < t.length && ((this.lengths.get(t[i + 1]!.text) ?? 0) & 4) !== 0;
      if (here === 0 && !reversible) continue;
      for (let n = Math.min(this.maxWords, t.length - i); n >= 1; n--) {
        if (!((here >>> n) & 1) && !(n === 2 && reversible)) continue;
        let key = t[i]!.text;
        for (let k = 1; k < n; k++) key += ` ${t[i + k]!.text}`;
        const bare = bareOf(key);
        const reversed = n === 2 ? `${t[i + 1]!.text} ${t[i]!.text}` : "";
        if (this.phrases.has(key) || this.phrases.has(bare) || (n === 2 && this.phrases.has(reversed))) {
          out.push([t[i]!.start, t[i + n - 1]!.end]);
          i += n - 1;
          break;
        }
      }
    }
    return out;
  }
}

/** An ODP category path as a list writes it: names of letters, `_`, `-` or `&`, joined by `/`. */
const CATEGORY = /^[A-Za-z][\w&-]*(?:\/[\w&' ,.-]+)*$/;

/** `key` without a trailing `'s` or `s` ("chapman's", "chapmans" → "chapman"). */
function bareOf(key: string): string {
  return key.endsWith("'s") ? key.slice(0, -2) : key.endsWith("s") ? key.slice(0, -1) : key;
}
