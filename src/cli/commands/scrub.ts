/**
 * `querymask scrub <log…> -o <out>`: the identifier-scrubbing step on its own. Writes the log with identifiers
 * dropped (default) or tagged (`--mode tag`: `[PERSON]`, `[PHONE]`, …) and prints how many of each type it found.
 */
import { type Command, Option } from "commander";
import { openLog } from "../../log/read.ts";
import { RejectSink } from "../../log/rejects.ts";
import { createRowWriter, writeThrough } from "../../log/row-write.ts";
import { readRows } from "../../log/rows.ts";
import { writeBatches } from "../../log/write.ts";
import { ClickUsers } from "../../scrub/click-url.ts";
import { emptyCounts, scrubRecords, scrubRows } from "../../scrub/scrub-log.ts";
import { createScrubber } from "../../scrub/scrubber.ts";
import { PII_TYPES, type PiiType, type ScrubMode } from "../../scrub/types.ts";
import { UsageError } from "../../util/errors.ts";
import {
  ALLOW_LIST_HELP,
  addInputOptions,
  checkOutputs,
  fileOutputs,
  type InputFlags,
  printTable,
  readAllowList,
  readOptions,
  reportRejects,
} from "../shared.ts";

interface ScrubFlags extends InputFlags {
  out: string;
  mode: ScrubMode;
  types?: string;
  keepEmpty?: boolean;
  keepSingleUserClicks?: boolean;
  allowList?: string;
  json?: boolean;
}

function parseTypes(list: string | undefined): PiiType[] | undefined {
  if (list === undefined) return undefined;
  const types = list
    .split(",")
    .map((t) => t.trim())
    .filter((t) => t !== "");
  for (const t of types) {
    if (!PII_TYPES.includes(t as PiiType)) {
      throw new UsageError(`--types: unknown identifier type '${t}' (known: ${PII_TYPES.join(", ")})`);
    }
  }
  return types as PiiType[];
}

export function register(program: Command): void {
  const cmd = program
    .command("scrub")
    .argument("<log...>", "log files or glob patterns (AOL TSV, Excite, NDJSON; plain or .gz)")
    .requiredOption("-o, --out <file>", "where to write the scrubbed log (same format as the input)")
    .addOption(
      new Option("--mode <mode>", "drop identifiers or replace them with a tag")
        .choices(["drop", "tag"])
        .default("drop"),
    )
    .option(
      "--types <list>",
      `comma-separated identifier types to look for (default: all: ${PII_TYPES.join(",")})`,
    )
    .option("--keep-empty", "keep records whose query is empty after scrubbing (default: remove them)")
    .option(
      "--keep-single-user-clicks",
      "keep click URLs that only one user clicked (dropped by default: such a URL can name its user); the scrubber then weighs no other user's queries either (no name counts)",
    )
    .option("--allow-list <file>", ALLOW_LIST_HELP)
    .option("--json", "print the counts as JSON")
    .addHelpText(
      "after",
      "\nExample:\n  querymask scrub data/excite/excite-small.log -o scrubbed.log --mode tag",
    );
  addInputOptions(cmd).action(async (inputs: string[], flags: ScrubFlags) => {
    const types = parseTypes(flags.types);
    const allow = await readAllowList(flags.allowList);
    const opts = readOptions(flags, flags.out);
    await checkOutputs(inputs, fileOutputs(flags.out, opts.rejectsPath));
    const log = await openLog(inputs, opts);
    // An AOL log is read and written as raw rows (no record per row), any other layout as records.
    const raw = log.format === "aol";
    // A first pass counts each click URL's users and each name's (bad lines are the second pass's to report).
    const clicks = flags.keepSingleUserClicks
      ? undefined
      : raw
        ? await ClickUsers.ofRows(readRows(log.files, true, new RejectSink()))
        : await ClickUsers.of((await openLog(inputs, { format: opts.format, lenient: true })).batches());
    const scrubber = createScrubber({
      mode: flags.mode,
      ...(types ? { types } : {}),
      ...(allow !== undefined ? { allow } : {}),
      nameUsers: clicks?.names,
    });
    const counts = emptyCounts();
    const scrubOpts = { ...(flags.keepEmpty ? { keepEmpty: true } : {}), ...(clicks ? { clicks } : {}) };
    opts.progress.start("scrubbing");
    try {
      if (raw) {
        const out = createRowWriter(flags.out, log.classified);
        const blocks = readRows(log.files, opts.lenient ?? false, log.rejects, opts.progress, out.readBuffer);
        await writeThrough(out, () => scrubRows(blocks, scrubber, counts, out, log.classified, scrubOpts));
      } else {
        await writeBatches(flags.out, log.format, scrubRecords(log.batches(), scrubber, counts, scrubOpts), {
          classified: log.classified,
        });
      }
    } finally {
      opts.progress.stop();
    }
    await log.rejects.close();
    reportRejects(log.rejects.count, opts.rejectsPath);
    if (flags.json) {
      const allowed =
        allow !== undefined ? { allowList: { file: flags.allowList, phrases: allow.size } } : {};
      process.stdout.write(
        `${JSON.stringify({ out: flags.out, mode: flags.mode, ...allowed, ...counts }, null, 2)}\n`,
      );
      return;
    }
    printTable([
      ["records read", counts.records],
      ["records changed", counts.changed],
      ["records removed (empty)", counts.removed],
      ["click URLs dropped (identifier in host)", counts.clicksDropped],
      ["click URLs dropped (clicked by one user only)", counts.singleUserClicksDropped],
      ...PII_TYPES.map((t): [string, number] => [`  ${t}`, counts.spans[t]]),
      ...(allow !== undefined
        ? [[`  left in by the allow list (${allow.describe()})`, counts.allowed] as [string, number]]
        : []),
      ["written to", flags.out],
    ]);
  });
}
