/**
 * Reading a social network from an edge-list file: one friendship per line, two node names separated by
 * spaces or a tab (`alice bob`); blank lines and lines starting with `#` are skipped. Plain or gzip, UTF-8,
 * through the same line reader as the logs, so encoding errors, NUL bytes and over-long lines are caught the
 * same way.
 *
 * A bad line (not exactly two names, or a node joined to itself) stops the read with `file:line: reason`
 * ({@link InputError}, exit 2); with a {@link RejectSink} (`--lenient`) it is set aside and counted instead.
 * A friendship listed twice (either way round) is kept once and counted as a duplicate, not an error.
 */
import { checkFile, readLineBlocks } from "../log/lines.ts";
import type { RejectSink } from "../log/rejects.ts";
import { InputError } from "../util/errors.ts";
import type { SocialGraph } from "./graph.ts";

export interface EdgeListResult {
  readonly graph: SocialGraph;
  /** Friendships listed more than once. */
  readonly duplicates: number;
  /** Lines set aside (lenient mode only; strict mode throws on the first). */
  readonly rejected: number;
}

/** Read `file`; with `rejects` bad lines are set aside there, without it the first one throws. */
export async function readEdgeList(file: string, rejects?: RejectSink): Promise<EdgeListResult> {
  await checkFile(file);
  const index = new Map<string, number>();
  const labels: string[] = [];
  const sets: Set<number>[] = [];
  const node = (name: string) => {
    let i = index.get(name);
    if (i === undefined) {
      i = labels.length;
      index.set(name, i);
      labels.push(name);
      sets.push(new Set());
    }
    return i;
  };
  let duplicates = 0;
  const before = rejects?.count ?? 0;
  const bad = (line: number, reason: string, raw: string) => {
    if (!rejects) throw new InputError(file, line, reason);
    rejects.add({ file, line, reason, raw });
  };
  for await (const block of readLineBlocks(file, bad)) {
    for (let k = 0; k < block.lines.length; k++) {
      const text = block.lines[k];
      if (text === undefined) continue;
      const trimmed = text.trim();
      if (trimmed === "" || trimmed.startsWith("#")) continue;
      const lineNo = block.firstLine + k;
      const fields = trimmed.split(/\s+/);
      if (fields.length !== 2) {
        bad(lineNo, `expected two node names separated by whitespace, got ${fields.length} fields`, text);
        continue;
      }
      const [a, b] = fields as [string, string];
      if (a === b) {
        bad(lineNo, `node ${JSON.stringify(a)} is joined to itself`, text);
        continue;
      }
      const ia = node(a);
      const ib = node(b);
      if (sets[ia]!.has(ib)) {
        duplicates++;
        continue;
      }
      sets[ia]!.add(ib);
      sets[ib]!.add(ia);
    }
  }
  if (labels.length === 0) throw new InputError(file, undefined, "no edges (an empty social network)");
  return {
    graph: { labels, named: true, adj: sets.map((s) => [...s].sort((x, y) => x - y)) },
    duplicates,
    rejected: (rejects?.count ?? 0) - before,
  };
}
