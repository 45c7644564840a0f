/**
 * Name lists from the English locale of `@faker-js/faker` (MIT): real music artists, albums, books, authors and
 * animal breeds, curated by its maintainers. Read by the knowledge-base build (name lists) and by the scrubber
 * (public figures whose names are no private person's identifier).
 */
import { createRequire } from "node:module";

let data: Record<string, Record<string, unknown>> | undefined;

function fakerData(): Record<string, Record<string, unknown>> {
  if (data === undefined) {
    const require = createRequire(import.meta.url);
    const locale = require("@faker-js/faker/locale/en") as {
      faker: { rawDefinitions: Record<string, Record<string, unknown>> };
    };
    data = locale.faker.rawDefinitions;
  }
  return data;
}

/** One list of the locale (`music`, `artist`), entries as strings (or their `name`). */
export function fakerList(module: string, key: string): readonly string[] {
  const list = fakerData()[module]?.[key];
  if (!Array.isArray(list)) throw new Error(`@faker-js/faker: no list ${module}.${key}`);
  return list.map((e: unknown) => (typeof e === "string" ? e : String((e as { name: string }).name)));
}
