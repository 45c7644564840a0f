/**
 * "drop-all": releases nothing. The other yardstick sanity check: no privacy risk at all (record linkage 0%)
 * and no utility (0% of events, users, queries retained).
 */
import { type Method, NO_GUARANTEE, type Release } from "../method.ts";
import { dropAllDeclaration } from "./meta.ts";

export const dropAll: Method<Readonly<Record<string, never>>> = {
  ...dropAllDeclaration,
  parse: (raw) => dropAllDeclaration.params.parse(raw),
  async anonymize(input): Promise<Release> {
    return {
      log: { records: [], format: input.format, classified: input.classified },
      origin: new Int32Array(0),
      counts: { released: 0, suppressed: input.records.length },
      guarantee: NO_GUARANTEE,
    };
  },
};
