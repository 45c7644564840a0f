/**
 * `querymask demo` (what `npm start` runs): the main job on the bundled Excite sample. For now it describes the
 * sample; it grows into classify → anonymize → attack → measure → report as those land.
 */

import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import { printTable } from "../shared.ts";
import { logStats } from "./stats.ts";

export const BUNDLED_SAMPLE = fileURLToPath(
  new URL("../../../data/excite/excite-small.log", import.meta.url),
);

export function register(program: Command): void {
  program
    .command("demo")
    .description("run the main job on the bundled Excite 1997 sample (what `npm start` does)")
    .action(async () => {
      process.stdout.write(
        `Bundled sample: ${BUNDLED_SAMPLE}\n(Excite query log sample, from the Apache Pig tutorial, Apache License 2.0)\n\n`,
      );
      const s = await logStats([BUNDLED_SAMPLE], {});
      printTable([
        ["users", s.users],
        ["query events", s.queryEvents],
        ["next-page requests", s.nextPageRequests],
        ["distinct queries", s.distinctQueries],
      ]);
    });
}
