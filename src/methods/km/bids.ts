/**
 * The bid table: what advertisers pay for a term (paper 003 used Yahoo! Search Marketing's maximal recommended
 * bid). A TSV file, one `term<TAB>value` per line; the value is a finite number ≥ 0. Blank lines and lines
 * starting with `#` are skipped. Terms are matched exactly against the log's whitespace tokens (see terms.ts);
 * a term absent from the table is worth 0. Any other line is an {@link InputError} naming `file:line`.
 */
import { readFile } from "node:fs/promises";
import { InputError } from "../../util/errors.ts";

export type BidTable = ReadonlyMap<string, number>;

/** Parse bid-table text; `file` is used in error messages. */
export function parseBids(text: string, file: string): Map<string, number> {
  const bids = new Map<string, number>();
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === "" || line.startsWith("#")) continue;
    const cols = line.split("\t");
    if (cols.length !== 2) {
      throw new InputError(file, i + 1, `expected "term<TAB>value", got ${cols.length} column(s)`);
    }
    const term = cols[0]!.trim();
    const raw = cols[1]!.trim();
    if (term === "" || /\s/.test(term)) {
      throw new InputError(
        file,
        i + 1,
        `the term must be one non-empty token, got ${JSON.stringify(cols[0])}`,
      );
    }
    const value = raw === "" ? Number.NaN : Number(raw);
    if (!Number.isFinite(value) || value < 0) {
      throw new InputError(file, i + 1, `the value must be a finite number ≥ 0, got ${JSON.stringify(raw)}`);
    }
    if (bids.has(term)) throw new InputError(file, i + 1, `duplicate term ${JSON.stringify(term)}`);
    bids.set(term, value);
  }
  return bids;
}

/** Read a bid table from a file. */
export async function readBids(path: string): Promise<Map<string, number>> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    throw new InputError(path, undefined, `cannot read the bid table: ${(err as Error).message}`);
  }
  return parseBids(text, path);
}

/** The bids as a vector indexed by term id (0 for terms absent from the table). */
export function bidVector(bids: BidTable, vocab: readonly string[]): Float64Array {
  return Float64Array.from(vocab, (term) => bids.get(term) ?? 0);
}
