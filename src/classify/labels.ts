/**
 * Hand-labelled queries: the top-level branches they are labelled with, and reading a labels TSV (a header holding
 * the columns `query` and `label`, such as ../shared/data/labels/train.tsv; rows labelled Unclassifiable are left
 * out of training).
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { InputError } from "../util/errors.ts";

/** The top-level branches a query can be labelled with (labels/GUIDE.md). */
export const TOP_LEVELS: readonly string[] = [
  "Adult",
  "Arts",
  "Business",
  "Computers",
  "Games",
  "Health",
  "Home",
  "Kids_and_Teens",
  "News",
  "Recreation",
  "Reference",
  "Regional",
  "Science",
  "Shopping",
  "Society",
  "Sports",
  "World",
];

export interface Labelled {
  readonly query: string;
  readonly label: string;
}

/** The labelled queries of a TSV file (Unclassifiable rows left out); bad rows are `file:line: reason`. */
export function readLabelled(path: string): Labelled[] {
  const lines = readFileSync(path, "utf8").split("\n");
  const header = (lines[0] ?? "").split("\t");
  const qi = header.indexOf("query");
  const li = header.indexOf("label");
  if (qi < 0 || li < 0) throw new InputError(path, 1, "the header needs 'query' and 'label' columns");
  const out: Labelled[] = [];
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === "") continue;
    const cols = line.split("\t");
    const query = cols[qi];
    const label = cols[li];
    if (query === undefined || label === undefined)
      throw new InputError(path, i + 1, `expected ${header.length} tab-separated columns`);
    if (label === "Unclassifiable") continue;
    if (!TOP_LEVELS.includes(label)) throw new InputError(path, i + 1, `unknown label ${label}`);
    out.push({ query, label });
  }
  return out;
}

/** Every query of a labelled file, Unclassifiable rows included (see `trainFromLabels`'s `withhold`). */
export function readQueries(path: string): string[] {
  const lines = readFileSync(path, "utf8").split("\n");
  const qi = (lines[0] ?? "").split("\t").indexOf("query");
  return lines
    .slice(1)
    .filter((l) => l.trim() !== "")
    .map((l) => l.split("\t")[qi] ?? "");
}

/** Lower-cased, single-spaced: the form in which queries are compared (pool vs labelled, withheld features). */
export function comparable(q: string): string {
  return q.toLowerCase().trim().split(/\s+/).join(" ");
}

/**
 * The queries a self-training pool must leave out for the labels file `labels`: its own and those of a `dev.tsv`
 * beside it (the check set), when there is one.
 */
export function labelledBeside(labels: string): string[] {
  const dev = join(dirname(labels), "dev.tsv");
  return [...readQueries(labels), ...(existsSync(dev) && dev !== labels ? readQueries(dev) : [])];
}
