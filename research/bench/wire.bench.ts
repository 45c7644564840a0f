/**
 * The cluster's wire codec alone (src/cluster/wire.ts), per row, by rows per message: columnar batches against
 * one JSON object per record, both through the same UTF-8 round trip, in a process of its own (the cluster bench
 * process holds the whole log and the classifier, whose heap slows every allocation several times over). Input:
 * the shared AOL subset (or a generated log when ../shared is absent), with stand-in categories.
 *
 * `node --expose-gc --import tsx bench/wire.bench.ts` (also `npm run bench -- wire`).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { writeResults } from "../../bench/results.ts";
import { sharedAol } from "../../bench/shared-aol.ts";
import { decode, encode } from "../../src/cluster/wire.ts";
import { openLog } from "../../src/log/read.ts";
import type { LogRecord } from "../../src/log/record.ts";

const AOL = sharedAol();
let path = AOL ?? "";
let source = "shared AOL subset";
if (AOL === undefined) {
  path = join(mkdtempSync(join(tmpdir(), "qm-bench-wire-")), "gen.tsv");
  const cli = fileURLToPath(new URL("../../src/cli/main.ts", import.meta.url));
  const args = ["--import", "tsx", cli, "generate", "--users", "500", "--seed", "1", "-q", "-o", path];
  if (spawnSync(process.execPath, args).status !== 0) throw new Error("generate failed");
  source = "generated 500-user log (shared data absent)";
}
const records: LogRecord[] = [];
const log = await openLog([path]);
for await (const b of log.batches())
  for (const r of b) {
    delete r.source;
    if (records.length < 200_000) records.push(r);
  }
// Stand-in categories (the classifier is not what is measured), so the category column is there as in the cluster.
const cats = ["Top/Arts/Music", "Top/Sports/Soccer", "Top/News", "Top/Computers/Internet", "Top/Health", ""];
records.forEach((r, i) => {
  r.category = cats[(i * 7 + r.query.length) % cats.length]!;
});

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const utf8 = { enc: new TextEncoder(), dec: new TextDecoder() };
const codecs: Record<string, { enc(b: LogRecord[]): Uint8Array; dec(m: Uint8Array): unknown }> = {
  columnar: { enc: (b) => encode({ inSeq: 1, records: b }), dec: (m) => decode(m) },
  "one JSON object per record": {
    enc: (b) => utf8.enc.encode(JSON.stringify({ inSeq: 1, records: b })),
    dec: (m) => JSON.parse(utf8.dec.decode(m)),
  },
};
const figures: Record<string, unknown> = { source, rows: records.length };
for (const pass of [1, 2]) // the first pass warms the JIT up for all alike
  for (const rows of [500, 1000, 1500, 2000, 4000])
    for (const [name, codec] of Object.entries(codecs)) {
      const batches: LogRecord[][] = [];
      for (let i = 0; i < records.length; i += rows) batches.push(records.slice(i, i + rows));
      let c = cpu();
      const messages = batches.map((b) => codec.enc(b));
      const encSeconds = cpu() - c;
      c = cpu();
      for (const m of messages) codec.dec(m);
      const decSeconds = cpu() - c;
      if (pass === 1) continue;
      const bytes = messages.reduce((a, m) => a + m.length, 0);
      const row = {
        "bytes per message": Math.round(bytes / messages.length),
        "encode µs per row": Math.round((encSeconds / records.length) * 1e8) / 100,
        "decode µs per row": Math.round((decSeconds / records.length) * 1e8) / 100,
        "bytes per row": Math.round((bytes / records.length) * 10) / 10,
      };
      figures[`${name}, ${rows} rows per message`] = row;
      console.log(`${name}, ${rows} rows per message`.padEnd(48), JSON.stringify(row));
    }
writeResults("wire", figures);
