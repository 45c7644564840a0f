/**
 * Profiles in PostgreSQL, for the distributed deployment: the same (user, category) → count table as the
 * embedded SQLite store, written by the cluster's profile writer. Each write names the released batch it comes
 * from; a batch already applied is skipped in the same transaction, so a replay after a crash changes nothing.
 */
import pg from "pg";
import { type CategoryWeight, type ProfileDelta, type ProfileSink, type SinkBatch, weigh } from "./store.ts";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS qm_profile (
  user_id TEXT NOT NULL, category TEXT NOT NULL, count BIGINT NOT NULL,
  PRIMARY KEY (user_id, category));
CREATE TABLE IF NOT EXISTS qm_applied (batch_id TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now());
`;

export class PgProfileStore implements ProfileSink {
  private constructor(private readonly pool: pg.Pool) {}

  static async open(url: string): Promise<PgProfileStore> {
    const pool = new pg.Pool({ connectionString: url, max: 4 });
    // An idle connection the server closes (restart, shutdown) is reported here; the next query reconnects.
    pool.on("error", () => {});
    await pool.query(SCHEMA);
    return new PgProfileStore(pool);
  }

  /**
   * Apply batches exactly once, in one transaction: their ids go into `qm_applied` in one statement, and the
   * deltas of those that were new are summed and upserted in one more. A replayed batch is skipped.
   */
  async applyBatches(batches: readonly SinkBatch[]): Promise<boolean[]> {
    // The first occurrence of each id: a call may carry one twice, and it counts once.
    const seen = new Set<string>();
    const first = batches.map((b) => {
      if (seen.has(b.id)) return false;
      seen.add(b.id);
      return true;
    });
    const client = await this.pool.connect();
    try {
      await client.query("BEGIN");
      const r = await client.query<{ batch_id: string }>(
        "INSERT INTO qm_applied (batch_id) SELECT unnest($1::text[]) ON CONFLICT DO NOTHING RETURNING batch_id",
        [batches.filter((_, i) => first[i]).map((b) => b.id)],
      );
      const fresh = new Set(r.rows.map((x) => x.batch_id));
      const applied = batches.map((b, i) => first[i] === true && fresh.has(b.id));
      const sum = new Map<string, ProfileDelta>();
      batches.forEach((b, i) => {
        if (!applied[i]) return;
        for (const d of b.deltas) {
          const key = `${d.user}\u0000${d.category}`;
          const had = sum.get(key);
          sum.set(key, had ? { ...had, count: had.count + d.count } : d);
        }
      });
      if (sum.size > 0) {
        const deltas = [...sum.values()];
        await client.query(
          `INSERT INTO qm_profile (user_id, category, count)
           SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[])
           ON CONFLICT (user_id, category) DO UPDATE SET count = qm_profile.count + excluded.count`,
          [deltas.map((d) => d.user), deltas.map((d) => d.category), deltas.map((d) => d.count)],
        );
      }
      await client.query("COMMIT");
      return applied;
    } catch (e) {
      await client.query("ROLLBACK").catch(() => {});
      throw e;
    } finally {
      client.release();
    }
  }

  async profile(user: string): Promise<CategoryWeight[]> {
    const r = await this.pool.query<{ category: string; count: string }>(
      "SELECT category, count FROM qm_profile WHERE user_id = $1",
      [user],
    );
    return weigh(r.rows.map((x) => ({ category: x.category, count: Number(x.count) })));
  }

  /** Every (user, category, count) row, sorted by user then category (byte order, as the SQLite store). */
  async sortedRows(): Promise<ProfileDelta[]> {
    const r = await this.pool.query<{ user_id: string; category: string; count: string }>(
      `SELECT user_id, category, count FROM qm_profile ORDER BY user_id COLLATE "C", category COLLATE "C"`,
    );
    return r.rows.map((x) => ({ user: x.user_id, category: x.category, count: Number(x.count) }));
  }

  async countApplied(prefix: string): Promise<number> {
    const r = await this.pool.query<{ n: string }>(
      "SELECT count(*) AS n FROM qm_applied WHERE left(batch_id, $1) = $2",
      [prefix.length, prefix],
    );
    return Number(r.rows[0]?.n ?? 0);
  }

  async clear(): Promise<void> {
    await this.pool.query("TRUNCATE qm_profile, qm_applied");
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
