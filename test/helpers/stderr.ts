/** What a piece of work writes to stderr, captured instead of printed (restored however the work ends). */
export async function stderrOf(work: () => unknown): Promise<string[]> {
  const written: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  }) as typeof process.stderr.write;
  try {
    await work();
  } finally {
    process.stderr.write = write;
  }
  return written;
}
