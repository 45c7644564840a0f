/**
 * "identity": releases the input unchanged. Not an anonymization — a yardstick sanity check: every privacy
 * yardstick should report the worst case on it (record linkage 100% on distinct users) and every utility
 * yardstick no loss at all.
 */
import { type Method, NO_GUARANTEE, type Release, type RowStage } from "../method.ts";
import { identityDeclaration } from "./meta.ts";

export const identity: Method<Readonly<Record<string, never>>> = {
  ...identityDeclaration,
  parse: (raw) => identityDeclaration.params.parse(raw),
  async anonymize(input): Promise<Release> {
    const records = input.records.map((r) => ({ ...r }));
    const origin = new Int32Array(records.length);
    for (let i = 0; i < origin.length; i++) origin[i] = i;
    return {
      log: { records, format: input.format, classified: input.classified },
      origin,
      counts: { released: records.length },
      guarantee: NO_GUARANTEE,
    };
  },
  /** Streaming a log (the CLI): every row copied as read, in input order. */
  createRowStage(_params, _ctx, out): RowStage {
    let released = 0;
    return {
      timeOrdered: false,
      push(rows) {
        out.copyAll(rows);
        released += rows.n;
      },
      flush() {},
      counts: () => ({ released }),
      // Nothing is held between blocks: the state is what was released.
      snapshot: () => ({ released }),
    };
  },
};
