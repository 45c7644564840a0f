/**
 * The phrases a user's allow list files under an ODP category (`dale brickner TAB Sports`, docs/scrub.md): the
 * classifier adds them to its knowledge (src/knowledge/extra-phrases.ts), so the learned layer reads a listed name
 * as it reads the people the bundled lists hold, and a query that is nothing but such a phrase (and function words:
 * `dale brickner`, `dale brickner's`) is filed under the list's category, as a listed site is by the query rules —
 * the list is the user's statement of who the person is.
 */
import type { ExtraPhrase } from "../knowledge/extra-phrases.ts";
import type { Taxonomy } from "../knowledge/taxonomy.ts";
import type { AllowList } from "../scrub/allow-list.ts";
import type { Token } from "../text/nlp.ts";
import { stem } from "../text/stem.ts";
import { isStopword } from "../text/stopwords.ts";
import { InputError } from "../util/errors.ts";
import type { WordFacts } from "./word-facts.ts";

export class ListedPhrases {
  private constructor(
    /** The phrases with their categories' taxonomy ids. */
    readonly phrases: readonly ExtraPhrase[],
    /** A phrase's stems (joined by spaces) → its category id and its text. */
    private readonly byStems: ReadonlyMap<string, { id: number; unit: string }>,
    /** The phrases' words: the spelling step leaves them as the list spells them. */
    readonly words: ReadonlySet<string>,
  ) {}

  /**
   * The phrases `allow` files under a category (`Sports`, `Arts/Music` or `Top/Arts/Music`), or undefined when it
   * files none; a category the taxonomy lacks is the list's error, `file:line: reason`.
   */
  static of(allow: AllowList, tax: Taxonomy): ListedPhrases | undefined {
    if (allow.filed.length === 0) return undefined;
    const phrases: ExtraPhrase[] = [];
    const byStems = new Map<string, { id: number; unit: string }>();
    for (const f of allow.filed) {
      const path = f.category.startsWith("Top/") ? f.category : `Top/${f.category}`;
      const id = tax.id(path);
      if (id === undefined)
        throw new InputError(
          allow.file ?? "allow list",
          f.line > 0 ? f.line : undefined,
          `${f.category} is not an ODP category of the knowledge base (a top level such as Sports, or a path such as Arts/Music)`,
        );
      phrases.push({ words: f.words, ids: [id] });
      byStems.set(f.words.map((w) => stem(w)).join(" "), { id, unit: f.words.join(" ") });
    }
    return new ListedPhrases(phrases, byStems, new Set(phrases.flatMap((p) => p.words)));
  }

  /** The category of a query whose words other than function words are one listed phrase; else undefined. */
  answer(tokens: readonly Token[], facts: readonly WordFacts[]): { id: number; unit: string } | undefined {
    let key = "";
    for (let i = 0; i < tokens.length; i++) {
      const w = tokens[i]!.text;
      if (isStopword(w) || w === "'s" || w === "’s") continue;
      key = key === "" ? facts[i]!.stem : `${key} ${facts[i]!.stem}`;
    }
    return key === "" ? undefined : this.byStems.get(key);
  }
}
