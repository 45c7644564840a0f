/**
 * `querymask profile <log…> --db profiles.sqlite`: build (or extend) per-user category profiles from a log, as
 * the paper's profiler does with each released record, and print each user's top categories.
 *
 * A load is all or nothing (one transaction: a killed run leaves the database as it was), and the database
 * records the content hash of every input it holds: loading the same log again would count it twice, so it is
 * refused unless `--append` says that is meant.
 */
import type { Command } from "commander";
import { loadCategorize } from "../../classify/categorize.ts";
import { openLog } from "../../log/read.ts";
import { fingerprint, type InputFingerprint } from "../../profile/fingerprint.ts";
import { Profiler } from "../../profile/profiler.ts";
import { SqliteProfileStore } from "../../profile/sqlite-store.ts";
import type { ProfileStore } from "../../profile/store.ts";
import { UsageError } from "../../util/errors.ts";
import {
  addInputOptions,
  checkOutputs,
  fileOutputs,
  formatNumber,
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
  limit: number;
  user?: string;
  json?: boolean;
  append?: boolean;
}

/** Refuse an input the store already holds (or one given twice), unless `append`. */
function refuseReloads(store: ProfileStore, db: string, inputs: readonly InputFingerprint[]): void {
  const seen = new Map<string, string>();
  for (const i of inputs) {
    const twice = seen.get(i.sha256);
    if (twice !== undefined)
      throw new UsageError(
        `${i.file}: same content as ${twice}, given in the same run; pass --append to count both`,
      );
    seen.set(i.sha256, i.file);
    const prev = store.loads(i.sha256)[0];
    if (prev) {
      throw new UsageError(
        `${db}: already holds ${i.file} (loaded from ${prev.file} at ${prev.at}); loading it again would count` +
          " its queries twice — pass --append if that is what you want",
      );
    }
  }
}

export function register(program: Command): void {
  const cmd = program
    .command("profile")
    .argument("<log...>", "log files or glob patterns (classified, or classified on the way)")
    .option("--db <file>", "SQLite profile store (created or extended)", "profiles.sqlite")
    .option("--depth <n>", "ODP depth of profile categories (1 = top level)", intArg(1), 1)
    .option("--top <n>", "categories printed per user", intArg(1), 3)
    .option("--user <id>", "print this user's whole profile only")
    .option("--limit <n>", "users printed at most in the table (--json prints all)", intArg(0), 1000)
    .option("--json", "print JSON instead of a table")
    .option("--append", "load a log even if the database already holds it (its queries count again)")
    .addHelpText(
      "after",
      "\nExamples:\n  querymask profile released.ndjson --db profiles.sqlite\n  querymask profile released.ndjson --db profiles.sqlite --user 1234 --json",
    );
  addInputOptions(cmd).action(async (inputs: string[], flags: ProfileFlags) => {
    const opts = readOptions(flags, flags.db);
    await checkOutputs(inputs, [
      { path: flags.db, role: "database" },
      ...fileOutputs(undefined, opts.rejectsPath),
    ]);
    const log = await openLog(inputs, opts);
    const fingerprints: InputFingerprint[] = [];
    for (const f of log.files) fingerprints.push(await fingerprint(f));
    const store = new SqliteProfileStore(flags.db);
    try {
      if (!flags.append) refuseReloads(store, flags.db, fingerprints);
      const profiler = new Profiler(store, flags.depth);
      let categorize: ((r: import("../../log/record.ts").LogRecord) => void) | undefined;
      await store.load(fingerprints, async () => {
        // The reader ticks the progress for every record read.
        opts.progress.start("profiling");
        try {
          for await (const batch of log.batches()) {
            if (batch.some((r) => r.category === undefined)) {
              categorize ??= await loadCategorize();
              for (const r of batch) if (r.category === undefined) categorize(r);
            }
            profiler.update(batch);
          }
          profiler.flush();
        } finally {
          opts.progress.stop();
        }
        await log.rejects.close();
      });
      reportRejects(log.rejects.count, opts.rejectsPath);
      // The load is committed: from here on only printing, which must not look like a failed load.
      const all = flags.user !== undefined ? [flags.user] : store.users();
      const users = flags.json ? all : all.slice(0, flags.limit);
      const limit = flags.user !== undefined ? Number.POSITIVE_INFINITY : flags.top;
      const profiles = users.map((user) => ({ user, categories: store.profile(user).slice(0, limit) }));
      if (flags.json) {
        writeJsonProfiles({ db: flags.db, ...profiler.counts() }, profiles);
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
      if (all.length > users.length) {
        process.stdout.write(
          `… and ${formatNumber(all.length - users.length)} more users (--limit, --user, or --json for all)\n`,
        );
      }
    } finally {
      store.close();
    }
  });
}

/** The JSON summary, profile by profile: one string of 200,000 profiles would be a few hundred MB at once. */
function writeJsonProfiles(head: Record<string, unknown>, profiles: readonly unknown[]): void {
  const open = JSON.stringify(head, null, 2).slice(0, -2);
  let piece = `${open},\n  "profiles": [`;
  profiles.forEach((p, i) => {
    piece += `${i === 0 ? "" : ","}\n    ${JSON.stringify(p)}`;
    if (piece.length > 1 << 16) {
      process.stdout.write(piece);
      piece = "";
    }
  });
  process.stdout.write(`${piece}${profiles.length > 0 ? "\n  " : ""}]\n}\n`);
}
