/**
 * The inputs and the commands of the malformed-input matrix (malformed.test.ts), shared with the process that runs
 * the commands (matrix-child.ts).
 */
import { join } from "node:path";
import { gzipSync } from "node:zlib";

const HEADER = "AnonID\tQuery\tQueryTime\tItemRank\tClickURL";
const rows = [
  "1\tcheap flights\t2006-03-01 07:33:28\t\t",
  "2\tweather boston\t2006-03-01 08:00:00\t1\thttp://weather.com",
  "1\tsoccer scores\t2006-03-01 09:10:00\t\t",
  "3\tcheap flights\t2006-03-02 10:00:00\t2\thttp://kayak.com",
];
const text = (lines: readonly string[], eol = "\n") => Buffer.from(`${lines.join(eol)}${eol}`);
const withBad = (bad: string | Buffer): Buffer =>
  Buffer.concat([
    text([HEADER, rows[0]!, rows[1]!]),
    Buffer.from(bad),
    Buffer.from("\n"),
    text(rows.slice(2)),
  ]);

export interface Case {
  readonly name: string;
  readonly file: string;
  readonly bytes: Buffer;
  /** The strict verdict: accepted, or refused at `line` (undefined: the file as a whole) with `reason`. */
  readonly bad?: { readonly line?: number; readonly reason: RegExp };
  /** Lenient mode: the lines it sets aside; undefined when lenient mode cannot go on either (nothing to read). */
  readonly rejects?: number;
}

export const good = text([HEADER, ...rows]);
export const CASES: Case[] = [
  { name: "good", file: "good.tsv", bytes: good, rejects: 0 },
  {
    name: "bad time",
    file: "bad-time.tsv",
    bytes: withBad("4\tx\t2006-13-45 99:00:00\t\t"),
    bad: { line: 4, reason: /unparsable QueryTime/ },
    rejects: 1,
  },
  { name: "CRLF", file: "crlf.tsv", bytes: text([HEADER, ...rows], "\r\n"), rejects: 0 },
  { name: "BOM", file: "bom.tsv", bytes: Buffer.concat([Buffer.from("\ufeff"), good]), rejects: 0 },
  {
    name: "invalid UTF-8",
    file: "utf8.tsv",
    bytes: withBad(
      Buffer.concat([Buffer.from("4\tcaf"), Buffer.from([0xe9]), Buffer.from("\t2006-03-01 10:00:00\t\t")]),
    ),
    bad: { line: 4, reason: /invalid UTF-8/ },
    rejects: 1,
  },
  {
    name: "NUL byte",
    file: "nul.tsv",
    bytes: withBad("4\tq\u0000x\t2006-03-01 10:00:00\t\t"),
    bad: { line: 4, reason: /NUL byte/ },
    rejects: 1,
  },
  {
    name: "a carriage return inside a query",
    file: "cr.tsv",
    bytes: withBad("4\tq\rx\t2006-03-01 10:00:00\t\t"),
    bad: { line: 4, reason: /carriage return \(CR\) inside a field/ },
    rejects: 1,
  },
  {
    name: "1 MB line",
    file: "long.tsv",
    bytes: withBad(`4\t${"a".repeat(1 << 20)}\t2006-03-01 10:00:00\t\t`),
    bad: { line: 4, reason: /line longer than 65536 bytes/ },
    rejects: 1,
  },
  {
    name: "an extra tab",
    file: "tab.tsv",
    bytes: withBad("4\tq\t2006-03-01 10:00:00\t\t\textra"),
    bad: { line: 4, reason: /tab-separated fields, found 6/ },
    rejects: 1,
  },
  { name: "three columns", file: "three.tsv", bytes: withBad("4\tq\t2006-03-01 10:00:00"), rejects: 0 },
  {
    name: "empty query",
    file: "empty-query.tsv",
    bytes: withBad("4\t\t2006-03-01 10:00:00\t\t"),
    rejects: 0,
  },
  { name: "empty file", file: "empty.tsv", bytes: Buffer.alloc(0), bad: { reason: /empty file/ } },
  { name: "header alone", file: "header.tsv", bytes: text([HEADER]), rejects: 0 },
  {
    name: "truncated gzip",
    file: "cut.tsv.gz",
    bytes: gzipSync(text([HEADER, ...Array.from({ length: 4000 }, (_, i) => rows[i % 4]!)])).subarray(0, 300),
    bad: { reason: /gzip|unexpected end|truncated/i },
  },
  { name: "fake gzip (plain text named .gz)", file: "plain.tsv.gz", bytes: good, rejects: 0 },
  {
    name: "fake gzip (gzip magic, then garbage)",
    file: "garbage.tsv.gz",
    bytes: Buffer.concat([Buffer.from([0x1f, 0x8b]), Buffer.from("this is not deflate data at all\n")]),
    bad: { reason: /gzip|header|incorrect|format/i },
  },
  {
    name: "negative rank",
    file: "rank.tsv",
    bytes: withBad("4\tq\t2006-03-01 10:00:00\t-1\thttp://x.com"),
    bad: { line: 4, reason: /ItemRank "-1" is not a whole number/ },
    rejects: 1,
  },
  { name: "no header", file: "no-header.tsv", bytes: text(rows), rejects: 0 },
];

/** A command over `input`, its outputs in `out` (a fresh directory). */
export interface Command {
  readonly name: string;
  readonly args: (input: string, out: string) => string[];
  /** Exit 1 is a verdict of this command (a check failed), not a failure. */
  readonly verdict?: boolean;
}

/** The commands, given the directory of the inputs. */
export const commands = (dir: string): Command[] => [
  { name: "stats", args: (i) => ["stats", i] },
  { name: "scrub", args: (i, o) => ["scrub", i, "-o", join(o, "out.tsv")] },
  { name: "classify", args: (i, o) => ["classify", i, "-o", join(o, "out.tsv")] },
  {
    name: "anonymize identity",
    args: (i, o) => ["anonymize", "--method", "identity", i, "-o", join(o, "out.tsv")],
  },
  { name: "anonymize swap", args: (i, o) => ["anonymize", "--method", "swap", i, "-o", join(o, "out.tsv")] },
  {
    name: "anonymize threshold",
    args: (i, o) => ["anonymize", "--method", "threshold", i, "-o", join(o, "out.tsv")],
  },
  { name: "check-km", args: (i) => ["check-km", "--k", "2", "--m", "1", i], verdict: true },
  {
    name: "audit",
    args: (i) => ["audit", "-m", "identity", "--original", i, "--released", join(dir, "good.tsv")],
    verdict: true,
  },
  {
    name: "attack",
    args: (i) => ["attack", "-a", "matcher", "--original", join(dir, "good.tsv"), "--released", i],
  },
  { name: "profile", args: (i, o) => ["profile", i, "--db", join(o, "p.sqlite")] },
  {
    name: "simulate-clientside",
    args: (i, o) => ["simulate-clientside", i, "--degree", "1", "-o", join(o, "v.tsv")],
  },
];
