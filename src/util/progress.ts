/**
 * Progress reporting for long work: a bar on a terminal, a line every few seconds otherwise (CI, pipes), and
 * nothing at all when silenced. Everything goes to stderr so stdout stays clean for data and `--json`.
 */
import { createRequire } from "node:module";
import type cliProgress from "cli-progress";
import { printable, unguarded } from "./terminal.ts";

export interface Progress {
  /** Begin a phase; `total` may be unknown (e.g. a streamed file). */
  start(label: string, total?: number): void;
  /** Advance by `n` units (records, lines, users…). */
  tick(n?: number): void;
  /** End the phase. */
  stop(): void;
}

export const silentProgress: Progress = { start() {}, tick() {}, stop() {} };

/** A bar when stderr is a TTY, periodic lines otherwise. */
export function consoleProgress(opts: { quiet?: boolean; intervalMs?: number } = {}): Progress {
  if (opts.quiet) return silentProgress;
  return process.stderr.isTTY ? new BarProgress() : new LineProgress(opts.intervalMs ?? 5000);
}

/**
 * A count for a person, with thousands separators ("4,501"): what `n.toLocaleString("en")` prints for a whole
 * number, without loading Intl's locale data (~30 CPU-ms at its first use, paid by every run that reports
 * progress). Other numbers go to Intl.
 */
export function countText(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString("en");
  let digits = String(Math.abs(n));
  for (let i = digits.length - 3; i > 0; i -= 3) digits = `${digits.slice(0, i)},${digits.slice(i)}`;
  return n < 0 || Object.is(n, -0) ? `-${digits}` : digits; // Intl prints -0 as "-0"
}

/** A phase's closing count: "4,501 done", or just "done" when the phase counted nothing (work it did not tick). */
function done(n: number): string {
  return n === 0 ? "done" : `${countText(n)} done`;
}

class BarProgress implements Progress {
  private bar: cliProgress.SingleBar | undefined;
  private done = 0;
  private label = "";

  start(label: string, total?: number): void {
    this.stop();
    this.label = printable(label);
    this.done = 0;
    const format =
      total === undefined
        ? `${this.label} {value} done, {speed}/s`
        : `${this.label} [{bar}] {percentage}% {value}/{total} eta {eta_formatted}`;
    // Required on first use, not imported: only a terminal shows a bar, and every command imports this file.
    const bars = createRequire(import.meta.url)("cli-progress") as typeof cliProgress;
    this.bar = new bars.SingleBar(
      {
        format,
        // The bar draws with escapes; what it shows of the data (its label) is escaped above.
        stream: unguarded(process.stderr),
        hideCursor: true,
        clearOnComplete: true,
        etaBuffer: 50,
        // Thousands separators in the counts a person reads.
        formatValue: (v, _options, type) => (type === "value" || type === "total" ? countText(v) : String(v)),
      },
      bars.Presets.shades_classic,
    );
    this.bar.start(total ?? 0, 0, { speed: "0" });
    this.started = Date.now();
  }

  private started = 0;

  tick(n = 1): void {
    this.done += n;
    const secs = (Date.now() - this.started) / 1000;
    this.bar?.update(this.done, {
      speed: secs > 0 ? countText(Math.round(this.done / secs)) : "0",
    });
  }

  stop(): void {
    if (!this.bar) return;
    this.bar.stop();
    this.bar = undefined;
    process.stderr.write(`${this.label} ${done(this.done)}\n`);
  }
}

class LineProgress implements Progress {
  private label = "";
  private total: number | undefined;
  private done = 0;
  private last = 0;
  private started = 0;

  constructor(private readonly intervalMs: number) {}

  start(label: string, total?: number): void {
    this.stop();
    this.label = label;
    this.total = total;
    this.done = 0;
    this.started = this.last = Date.now();
  }

  tick(n = 1): void {
    if (this.started === 0) this.start("working", this.total); // a tick outside any phase still gets a label
    this.done += n;
    const now = Date.now();
    if (now - this.last < this.intervalMs) return;
    this.last = now;
    const rate = Math.round(this.done / (Math.max(1, now - this.started) / 1000));
    const of = this.total === undefined ? "" : ` of ${countText(this.total)}`;
    process.stderr.write(`${this.label}: ${countText(this.done)}${of} (${countText(rate)}/s)\n`);
  }

  stop(): void {
    if (this.started === 0) return;
    const secs = ((Date.now() - this.started) / 1000).toFixed(1);
    process.stderr.write(`${this.label}: ${done(this.done)} in ${secs}s\n`);
    this.started = 0;
  }
}
