/**
 * Runs one command of the malformed-input matrix over every input, strict and lenient, in this process (the
 * classifier loads once): argv dir command-name. Prints the runs as JSON: argv, exit code, stderr.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { runInProcess } from "./in-process.ts";
import { CASES, commands } from "./matrix-cases.ts";

const [dir, name] = process.argv.slice(2) as [string, string];
const cmd = commands(dir).find((c) => c.name === name)!;

const runs: { case: string; lenient: boolean; out: string; code: number; err: string }[] = [];
const stdout = process.stdout.write.bind(process.stdout);
let n = 0;
for (const c of CASES) {
  for (const lenient of [false, true]) {
    const out = join(dir, `${name.replace(/ /g, "-")}-${++n}`);
    mkdirSync(out);
    const argv = [
      ...cmd.args(join(dir, c.file), out),
      "-q",
      ...(lenient ? ["--lenient", "--rejects", join(out, "rejects.PRIVATE.tsv")] : []),
    ];
    const r = await runInProcess(argv);
    runs.push({ case: c.name, lenient, out, code: r.code, err: r.err });
  }
}
stdout(JSON.stringify(runs));
