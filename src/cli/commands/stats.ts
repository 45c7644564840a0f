/** `querymask stats <log…>`: users, query events, clicks, next-page requests, distinct queries, dates. */
import type { Command } from "commander";
import { openLog } from "../../log/read.ts";
import { readRows } from "../../log/rows.ts";
import { type LogStats, StatsAccumulator } from "../../log/stats.ts";
import { streamingHeap } from "../heap.ts";
import {
  addInputOptions,
  checkOutputs,
  fileOutputs,
  type InputFlags,
  printTable,
  readOptions,
  reportRejects,
} from "../shared.ts";

export async function logStats(inputs: string[], flags: InputFlags): Promise<LogStats & { format: string }> {
  const opts = readOptions(flags);
  await checkOutputs(inputs, fileOutputs(undefined, opts.rejectsPath));
  const log = await openLog(inputs, opts);
  const acc = new StatsAccumulator();
  opts.progress.start("reading");
  try {
    // An AOL log is counted on its raw rows (no record per row), any other layout on its records.
    if (log.format === "aol") {
      for await (const rows of readRows(log.files, opts.lenient ?? false, log.rejects, opts.progress))
        acc.pushRows(rows);
    } else for await (const batch of log.batches()) acc.push(batch);
  } finally {
    opts.progress.stop();
  }
  await log.rejects.close();
  reportRejects(log.rejects.count, opts.rejectsPath);
  return { format: log.format, ...acc.result(log.rejects.count) };
}

export function register(program: Command): void {
  const cmd = program
    .command("stats")
    .argument("<log...>", "log files or glob patterns (AOL TSV, Excite, NDJSON; plain or .gz)")
    .option("--json", "print JSON instead of a table")
    .addHelpText(
      "after",
      "\nExample:\n  querymask stats data/excite/excite-small.log\n  querymask stats 'aol/user-ct-test-collection-*.txt.gz' --json",
    );
  addInputOptions(cmd).action(async (inputs: string[], flags: InputFlags & { json?: boolean }) => {
    streamingHeap();
    const s = await logStats(inputs, flags);
    if (flags.json) {
      process.stdout.write(`${JSON.stringify(s, null, 2)}\n`);
      return;
    }
    printTable([
      ["format", s.format],
      ["rows", s.rows],
      ["users", s.users],
      ["query events", s.queryEvents],
      ["click rows", s.clickRows],
      ["next-page requests", s.nextPageRequests],
      ["distinct queries", s.distinctQueries],
      ["first time", s.firstTime ?? "-"],
      ["last time", s.lastTime ?? "-"],
      [
        "queries per user (min / median / max)",
        `${s.queriesPerUser.min} / ${s.queriesPerUser.median} / ${s.queriesPerUser.max}`,
      ],
      ["rejected lines", s.rejected],
    ]);
  });
}
