/** Small hand-made taxonomies, mappers and logs for the mdav tests. */
import { knowledgeOf } from "../../src/classify/service.ts";
import type { KnowledgeBase } from "../../src/knowledge/knowledge-base.ts";
import { Taxonomy } from "../../src/knowledge/taxonomy.ts";
import type { LogRecord, QueryLog } from "../../src/log/record.ts";
import type { MethodContext } from "../../src/methods/method.ts";
import { CategorySpace } from "../../src/semantic/category-space.ts";
import { type ConceptMapper, phraseMapper } from "../../src/semantic/concept-mapper.ts";
import { silentProgress } from "../../src/util/progress.ts";
import { Rng } from "../../src/util/random.ts";

/** The categories of paper 004's Examples 2–4 (Mediterranean under Regional/Europe/Regions). */
export const PAPER_TSV = [
  "Top/Sports/Water_Sports/Swimming_and_Diving\t1",
  "Top/Sports/Water_Sports/Windsurfing\t1",
  "Top/Sports/Soccer\t1",
  "Top/Regional/Europe/Regions/Mediterranean\t1",
  "Top/Computers/Software/Databases\t1",
  "Top/Computers/Hardware\t1",
  "Top/Health/Conditions\t1",
].join("\n");

export function paperTaxonomy(): Taxonomy {
  return Taxonomy.fromTsv(PAPER_TSV);
}

/** A knowledge-base lookup that knows a few words, each to one category path of {@link paperTaxonomy}. */
export function paperLookup(t: Taxonomy): (phrase: string) => number[] {
  const dict: Record<string, string> = {
    diving: "Sports/Water_Sports/Swimming_and_Diving",
    swimming: "Sports/Water_Sports/Swimming_and_Diving",
    windsurfing: "Sports/Water_Sports/Windsurfing",
    soccer: "Sports/Soccer",
    football: "Sports/Soccer",
    mediterranean: "Regional/Europe/Regions/Mediterranean",
    database: "Computers/Software/Databases",
    sql: "Computers/Software/Databases",
    laptop: "Computers/Hardware",
    flu: "Health/Conditions",
    fever: "Health/Conditions",
  };
  return (phrase) => {
    const path = dict[phrase];
    return path ? [t.id(path)!] : [];
  };
}

/** A mapper over {@link paperLookup}. */
export function paperMapper(t: Taxonomy = paperTaxonomy()): ConceptMapper {
  return phraseMapper({ space: CategorySpace.fromTaxonomy(t), lookup: paperLookup(t) });
}

/** A method context whose knowledge base is the paper taxonomy with {@link paperLookup}. */
export function paperContext(seed: number): MethodContext {
  const t = paperTaxonomy();
  const kb = { taxonomy: t, lookup: paperLookup(t) };
  return {
    rng: Rng.fromSeed(seed),
    progress: silentProgress,
    knowledge: knowledgeOf(kb as unknown as KnowledgeBase),
  };
}

const WORDS = ["diving", "swimming", "windsurfing", "soccer", "football", "mediterranean", "database", "sql"];
const MORE = ["laptop", "flu", "fever", "zzz unknown", "diving in the mediterranean", "cheap laptop deals"];

/** A random log of `users` users with 1–12 query events each (some with two click rows). */
export function randomLog(users: number, seed: number): QueryLog {
  const rng = Rng.fromSeed(seed);
  const records: LogRecord[] = [];
  const vocab = [...WORDS, ...MORE];
  for (let u = 0; u < users; u++) {
    const n = 1 + rng.int(12);
    let t = 1_140_000_000 + rng.int(1000);
    for (let q = 0; q < n; q++) {
      t += 1 + rng.int(500);
      const query = rng.pick(vocab);
      const rows = 1 + rng.int(2);
      for (let r = 0; r < rows; r++) {
        records.push({
          user: `u${u}`,
          query,
          time: t,
          itemRank: r + 1,
          clickUrl: `http://site${rng.int(5)}.com`,
        });
      }
    }
  }
  return { records, format: "aol" };
}
