/**
 * `querymask profile <log…> --db profiles.sqlite`: build (or extend) per-user category profiles from a log, as
 * the paper's profiler does with each released record, and print each user's top categories.
 */
import type { Command } from "commander";
import { openLog } from "../../log/read.ts";
import { loadCategorize } from "../../methods/swap/classify.ts";
import { Profiler } from "../../profile/profiler.ts";
import { SqliteProfileStore } from "../../profile/sqlite-store.ts";
import {
  addInputOptions,
  type InputFlags,
  intArg,
  printTable,
  readOptions,
  reportRejects,
} from "../shared.ts";

interface ProfileFlags extends InputFlags {
  db: string;
  depth: number;
  top: number;
  user?: string;
  json?: boolean;
}

export function register(program: Command): void {
  const cmd = program
    .command("profile")
    .argument("<log...>", "log files or glob patterns (classified, or classified on the way)")
    .option("--db <file>", "SQLite profile store (created or extended)", "profiles.sqlite")
    .option("--depth <n>", "ODP depth of profile categories (1 = top level)", intArg(1), 1)
    .option("--top <n>", "categories printed per user", intArg(1), 3)
    .option("--user <id>", "print this user's whole profile only")
    .option("--json", "print JSON instead of a table")
    .addHelpText(
      "after",
      "\nExamples:\n  querymask profile released.ndjson --db profiles.sqlite\n  querymask profile released.ndjson --db profiles.sqlite --user 1234 --json",
    );
  addInputOptions(cmd).action(async (inputs: string[], flags: ProfileFlags) => {
    const opts = readOptions(flags);
    const log = await openLog(inputs, opts);
    const store = new SqliteProfileStore(flags.db);
    try {
      const profiler = new Profiler(store, flags.depth);
      let categorize: ((r: import("../../log/record.ts").LogRecord) => void) | undefined;
      opts.progress.start("profiling");
      try {
        for await (const batch of log.batches()) {
          if (batch.some((r) => r.category === undefined)) {
            categorize ??= await loadCategorize();
            for (const r of batch) if (r.category === undefined) categorize(r);
          }
          profiler.update(batch);
          opts.progress.tick(batch.length);
        }
        profiler.flush();
      } finally {
        opts.progress.stop();
      }
      await log.rejects.close();
      reportRejects(log.rejects.count, opts.rejectsPath);
      const users = flags.user !== undefined ? [flags.user] : store.users();
      const limit = flags.user !== undefined ? Number.POSITIVE_INFINITY : flags.top;
      const profiles = users.map((user) => ({ user, categories: store.profile(user).slice(0, limit) }));
      if (flags.json) {
        process.stdout.write(
          `${JSON.stringify({ db: flags.db, ...profiler.counts(), profiles }, null, 2)}\n`,
        );
        return;
      }
      printTable(
        profiles.map((p) => [
          p.user,
          p.categories
            .map((c) => `${c.category || "(unclassified)"} ${(100 * c.weight).toFixed(1)}% (${c.count})`)
            .join(", "),
        ]),
      );
    } finally {
      store.close();
    }
  });
}
