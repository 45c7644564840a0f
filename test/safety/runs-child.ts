/**
 * Runs CLI command lines in this process, one after the other, as the `querymask` command runs them (stdout and
 * stderr guarded): argv a JSON file holding the command lines. Prints the runs as JSON: exit code, stdout, stderr.
 */
import { readFileSync } from "node:fs";
import { runInProcess } from "./in-process.ts";

const lines = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as string[][];
const stdout = process.stdout.write.bind(process.stdout);
const runs: { code: number; out: string; err: string }[] = [];
for (const argv of lines) runs.push(await runInProcess(argv, true));
stdout(JSON.stringify(runs));
