/**
 * One owner per partition: a lease in the state bucket (`lease_<p>` = holder and expiry), taken and renewed with
 * compare-and-set on the key's revision, so two workers can never both believe they own a partition. A worker that
 * dies stops renewing; its lease expires after `ttlMs` and a replacement takes it over. A worker that finds its
 * lease taken over (it stalled past the expiry) stops before it publishes again.
 */
import type { KV } from "@nats-io/kv";

export interface LeaseValue {
  readonly holder: string;
  readonly expires: number;
}

export class Lease {
  private revision = 0;
  private timer: NodeJS.Timeout | undefined;
  private lostReason: string | undefined;

  private constructor(
    private readonly kv: KV,
    private readonly key: string,
    private readonly holder: string,
    private readonly ttlMs: number,
  ) {}

  /** Take the lease, waiting up to `waitMs` for a previous holder's lease to expire. */
  static async acquire(
    kv: KV,
    key: string,
    holder: string,
    opts: { ttlMs?: number; waitMs?: number } = {},
  ): Promise<Lease> {
    const ttl = opts.ttlMs ?? 5_000;
    const deadline = Date.now() + (opts.waitMs ?? 60_000);
    const lease = new Lease(kv, key, holder, ttl);
    for (;;) {
      const e = await kv.get(key);
      const value = JSON.stringify({ holder, expires: Date.now() + ttl } satisfies LeaseValue);
      try {
        if (e?.operation !== "PUT") {
          lease.revision = e ? await kv.update(key, value, e.revision) : await kv.create(key, value);
          break;
        }
        const cur = e.json<LeaseValue>();
        if (cur.expires < Date.now() || cur.holder === holder) {
          lease.revision = await kv.update(key, value, e.revision);
          break;
        }
      } catch {
        // another worker won the race for this revision: look again
      }
      if (Date.now() > deadline)
        throw new Error(`${key} is held by ${e?.json<LeaseValue>().holder ?? "another worker"}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    lease.timer = setInterval(() => void lease.renew(), Math.max(100, Math.floor(ttl / 3)));
    lease.timer.unref();
    return lease;
  }

  private renewing = false;

  /**
   * One renewal at a time (under load a renewal can take longer than the interval; two in flight with the same
   * revision would refuse each other). A renewal whose acknowledgement was lost may still have been stored: the
   * key then holds our own value under a newer revision, which we adopt — only this holder writes its name.
   */
  private async renew(): Promise<void> {
    if (this.lostReason !== undefined || this.renewing) return;
    this.renewing = true;
    try {
      const value = JSON.stringify({
        holder: this.holder,
        expires: Date.now() + this.ttlMs,
      } satisfies LeaseValue);
      try {
        this.revision = await this.kv.update(this.key, value, this.revision);
      } catch (e) {
        const cur = await this.kv.get(this.key).catch(() => null);
        if (cur?.operation === "PUT" && cur.json<LeaseValue>().holder === this.holder) {
          this.revision = cur.revision;
          this.revision = await this.kv.update(this.key, value, this.revision);
        } else throw e;
      }
    } catch (e) {
      this.lostReason = `lost ${this.key}: ${e instanceof Error ? e.message : String(e)}`;
    } finally {
      this.renewing = false;
    }
  }

  /** Throws if the lease was lost (taken over after a stall): the caller must stop before publishing. */
  check(): void {
    if (this.lostReason !== undefined) throw new Error(this.lostReason);
  }

  async release(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (this.lostReason === undefined) await this.kv.delete(this.key).catch(() => {});
  }
}
