/**
 * What identifies a loaded input: the SHA-256 of its bytes (as stored, so a `.gz` file is hashed compressed) and
 * its size. A copy or a rename of a log is the same input; a log with one more line is another. Hashing reads the
 * file once more, at disk speed — small next to profiling it.
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";

export interface InputFingerprint {
  readonly file: string;
  readonly bytes: number;
  /** Hex SHA-256 of the file's bytes. */
  readonly sha256: string;
}

export async function fingerprint(file: string): Promise<InputFingerprint> {
  const { size } = await stat(file);
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return { file, bytes: size, sha256: hash.digest("hex") };
}
