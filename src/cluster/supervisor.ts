/**
 * Keeps the pipeline's workers running: each is a child process; one that dies (killed, crashed, exited non-zero)
 * is started again with the same arguments, up to a number of restarts, after a short pause that grows with each
 * restart. Restarting is safe because every worker is: a classify worker's unacknowledged batch is redelivered, an
 * anonymizer restores its snapshot and replays (waiting for its dead predecessor's lease to expire), the profile
 * writer skips batches it applied. A worker that exits 0 has finished its work (an anonymizer after its partition's
 * end of stream, the profile writer with --until-end) and is not restarted.
 */
import type { ChildProcess } from "node:child_process";

export interface SupervisorOptions {
  /** Start one worker process with these arguments. */
  spawn(args: readonly string[]): ChildProcess;
  /** One line per restart or give-up. */
  log(line: string): void;
  /** Restarts per worker before the supervisor gives up on the run (default 5). */
  readonly maxRestarts?: number;
  /** Pause before the n-th restart: n × this (default 250 ms). */
  readonly backoffMs?: number;
}

interface Supervised {
  readonly name: string;
  readonly args: readonly string[];
  child: ChildProcess;
  restarts: number;
  finished: boolean;
  readonly done: Promise<void>;
  resolve(): void;
}

export class Supervisor {
  private readonly workers: Supervised[] = [];
  private stopping = false;
  private failWith: ((e: Error) => void) | undefined;
  /** Rejects when a worker keeps dying past its restarts; never resolves otherwise. */
  readonly failure: Promise<never>;

  constructor(private readonly opts: SupervisorOptions) {
    this.failure = new Promise<never>((_, reject) => {
      this.failWith = reject;
    });
    this.failure.catch(() => {}); // observed by whoever awaits it; not an unhandled rejection meanwhile
  }

  /** Start a worker under supervision; the promise resolves when it has finished its work (exit 0). */
  start(name: string, args: readonly string[]): Promise<void> {
    let resolve!: () => void;
    const done = new Promise<void>((r) => {
      resolve = r;
    });
    const w: Supervised = {
      name,
      args,
      child: this.opts.spawn(args),
      restarts: 0,
      finished: false,
      done,
      resolve,
    };
    this.workers.push(w);
    this.watch(w);
    return done;
  }

  /** How many times each worker was restarted, by name (only those restarted). */
  restarts(): Record<string, number> {
    return Object.fromEntries(this.workers.filter((w) => w.restarts > 0).map((w) => [w.name, w.restarts]));
  }

  /** The live process of a worker (its pid changes on every restart). */
  child(name: string): ChildProcess | undefined {
    return this.workers.find((w) => w.name === name)?.child;
  }

  /** Ask every running worker to stop (SIGTERM) and wait until they have; nothing is restarted from now on. */
  async stop(): Promise<void> {
    this.stopping = true;
    const live = this.workers.filter((w) => !w.finished);
    for (const w of live) w.child.kill("SIGTERM");
    await Promise.all(live.map((w) => w.done));
  }

  private watch(w: Supervised): void {
    const child = w.child;
    child.once("exit", (code, signal) => {
      if (this.stopping || code === 0) {
        w.finished = true;
        w.resolve();
        return;
      }
      const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      const max = this.opts.maxRestarts ?? 5;
      if (w.restarts >= max) {
        w.finished = true;
        w.resolve();
        this.opts.log(`${w.name} (pid ${child.pid}) ${how}; gave up after ${max} restarts`);
        this.failWith?.(new Error(`worker ${w.name} kept failing (${max} restarts)`));
        return;
      }
      w.restarts++;
      this.opts.log(`${w.name} (pid ${child.pid}) ${how}; restarting (${w.restarts}/${max})`);
      setTimeout(
        () => {
          if (this.stopping) {
            w.finished = true;
            w.resolve();
            return;
          }
          w.child = this.opts.spawn(w.args);
          this.watch(w);
        },
        (this.opts.backoffMs ?? 250) * w.restarts,
      );
    });
  }
}
