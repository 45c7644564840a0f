/**
 * Run the CLI in this process (the classifier loads once for many runs): its exit code, stdout and stderr.
 * `guarded` runs it as the `querymask` command does (stdout and stderr guarded against control characters).
 */
import { cli, main } from "../../src/cli/main.ts";

export async function runInProcess(
  argv: readonly string[],
  guarded = false,
): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const stdout = process.stdout.write;
  const stderr = process.stderr.write;
  process.stdout.write = ((c: string | Uint8Array) => {
    out += String(c);
    return true;
  }) as typeof process.stdout.write;
  process.stderr.write = ((c: string | Uint8Array) => {
    err += String(c);
    return true;
  }) as typeof process.stderr.write;
  try {
    const code = await (guarded ? cli : main)(["node", "querymask", ...argv]);
    return { code, out, err };
  } finally {
    process.stdout.write = stdout;
    process.stderr.write = stderr;
    process.exitCode = undefined;
  }
}
