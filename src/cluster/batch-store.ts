/**
 * PostgreSQL's part in a batch method's cluster run: it sums the shards' partial aggregates (`Method.sharded`).
 * A batch of a shard is applied once: its (shard, batch) goes into `qm_batch_applied` and its rows are appended to
 * `qm_batch_part` in the same transaction, so a worker killed mid-batch leaves nothing of it, and one started again
 * skips what was applied (as the profile writer does with released batches). A shard that has applied all its
 * batches says so in `qm_batch_shard`; once every shard has, the coordinator sums the parts into `qm_batch_sum`
 * with one statement (`sum`) and reads the sums. Appending and summing once is ~3× faster than upserting each row
 * into the sums as it comes (no index to keep, no row locks shared by the shards).
 */
import pg from "pg";
import type { PartialRow, SummedRows } from "../methods/sharded.ts";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS qm_batch_sum (
  kind SMALLINT NOT NULL, key TEXT COLLATE "C" NOT NULL, key2 TEXT COLLATE "C" NOT NULL, a BIGINT NOT NULL, b BIGINT NOT NULL,
  first BIGINT NOT NULL, PRIMARY KEY (kind, key, key2));
CREATE TABLE IF NOT EXISTS qm_batch_part (
  kind SMALLINT NOT NULL, key TEXT COLLATE "C" NOT NULL, key2 TEXT COLLATE "C" NOT NULL, a BIGINT NOT NULL, b BIGINT NOT NULL,
  first BIGINT NOT NULL);
CREATE TABLE IF NOT EXISTS qm_batch_applied (shard INT NOT NULL, batch INT NOT NULL, PRIMARY KEY (shard, batch));
CREATE TABLE IF NOT EXISTS qm_batch_shard (shard INT PRIMARY KEY, batches INT NOT NULL, users BIGINT NOT NULL);
ALTER TABLE qm_batch_shard ADD COLUMN IF NOT EXISTS rss_kib BIGINT NOT NULL DEFAULT 0,
  ADD COLUMN IF NOT EXISTS cpu_ms BIGINT NOT NULL DEFAULT 0, ADD COLUMN IF NOT EXISTS wall_ms BIGINT NOT NULL DEFAULT 0,
  ADD COLUMN IF NOT EXISTS rows_sent BIGINT NOT NULL DEFAULT 0, ADD COLUMN IF NOT EXISTS bytes_sent BIGINT NOT NULL DEFAULT 0,
  ADD COLUMN IF NOT EXISTS result TEXT NOT NULL DEFAULT '';
`;

/** What a worker process used: its peak RSS, CPU (user + system) and wall time. */
export interface WorkerUsage {
  readonly rssKiB: number;
  readonly cpuMs: number;
  readonly wallMs: number;
  /** Partial rows it sent to PostgreSQL, and their size (keys' UTF-8 bytes plus 8 per number). */
  readonly rowsSent: number;
  readonly bytesSent: number;
}

/** A finished shard: its batch and user counts, and what its (last) worker process used. */
export interface ShardDone {
  readonly batches: number;
  readonly users: number;
  readonly usage: WorkerUsage;
  /** What the shard's pass returned besides its sums (a release pass: its release and scrub counts), as JSON. */
  readonly result: string;
}

/** Rows sent per statement (the parameters are arrays, one per column). */
const CHUNK = 20_000;
/** Rows read per page by the coordinator. */
const PAGE = 50_000;

export class BatchStore {
  private constructor(private readonly pool: pg.Pool) {}

  static async open(url: string): Promise<BatchStore> {
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    pool.on("error", () => {});
    await pool.query(SCHEMA);
    return new BatchStore(pool);
  }

  /** Forget every run's sums (a new run starts), or with `keepSums` all but the last sums (a release pass). */
  async clear(keepSums = false): Promise<void> {
    await this.pool.query(
      `TRUNCATE ${keepSums ? "" : "qm_batch_sum, "}qm_batch_part, qm_batch_applied, qm_batch_shard`,
    );
  }

  /** The batches shard `shard` has applied. */
  async applied(shard: number): Promise<Set<number>> {
    const r = await this.pool.query<{ batch: number }>(
      "SELECT batch FROM qm_batch_applied WHERE shard = $1",
      [shard],
    );
    return new Set(r.rows.map((x) => x.batch));
  }

  /** Append a batch's rows to the parts, once: false when (shard, batch) was applied before (nothing is added). */
  async apply(shard: number, batch: number, rows: readonly PartialRow[]): Promise<boolean> {
    const client = await this.pool.connect();
    try {
      await client.query("BEGIN");
      const fresh = await client.query(
        "INSERT INTO qm_batch_applied (shard, batch) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING batch",
        [shard, batch],
      );
      if (fresh.rowCount === 0) {
        await client.query("ROLLBACK");
        return false;
      }
      for (let i = 0; i < rows.length; i += CHUNK) {
        const part = rows.slice(i, i + CHUNK);
        await client.query(
          `INSERT INTO qm_batch_part (kind, key, key2, a, b, first)
           SELECT * FROM unnest($1::smallint[], $2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::bigint[])`,
          [
            part.map((r) => r.kind),
            part.map((r) => r.key),
            part.map((r) => r.key2),
            part.map((r) => r.a),
            part.map((r) => r.b),
            part.map((r) => r.first),
          ],
        );
      }
      await client.query("COMMIT");
      return true;
    } catch (e) {
      await client.query("ROLLBACK").catch(() => {});
      throw e;
    } finally {
      client.release();
    }
  }

  /**
   * Sum every applied part into `qm_batch_sum` (after every shard has finished): one GROUP BY into the table
   * without its key, the key built after (measured 9 s against 32 s with the key kept, on 2.8M parts).
   */
  async sum(): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query("BEGIN");
      await client.query("SET LOCAL work_mem = '256MB'");
      await client.query("SET LOCAL maintenance_work_mem = '512MB'");
      await client.query("TRUNCATE qm_batch_sum");
      await client.query("ALTER TABLE qm_batch_sum DROP CONSTRAINT IF EXISTS qm_batch_sum_pkey");
      await client.query(
        `INSERT INTO qm_batch_sum (kind, key, key2, a, b, first)
         SELECT kind, key, key2, sum(a), sum(b), min(first) FROM qm_batch_part GROUP BY kind, key, key2`,
      );
      await client.query("ALTER TABLE qm_batch_sum ADD PRIMARY KEY (kind, key, key2)");
      await client.query("COMMIT");
    } catch (e) {
      await client.query("ROLLBACK").catch(() => {});
      throw e;
    } finally {
      client.release();
    }
  }

  /** Shard `shard` has applied all `batches` of its batches (`users` users); its worker used `usage`. */
  async finish(
    shard: number,
    batches: number,
    users: number,
    usage: WorkerUsage,
    result = "",
  ): Promise<void> {
    await this.pool.query(
      `INSERT INTO qm_batch_shard (shard, batches, users, rss_kib, cpu_ms, wall_ms, rows_sent, bytes_sent, result)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (shard) DO UPDATE SET batches = EXCLUDED.batches, users = EXCLUDED.users,
         rss_kib = EXCLUDED.rss_kib, cpu_ms = EXCLUDED.cpu_ms, wall_ms = EXCLUDED.wall_ms,
         rows_sent = EXCLUDED.rows_sent, bytes_sent = EXCLUDED.bytes_sent, result = EXCLUDED.result`,
      [
        shard,
        batches,
        users,
        usage.rssKiB,
        Math.round(usage.cpuMs),
        Math.round(usage.wallMs),
        usage.rowsSent,
        usage.bytesSent,
        result,
      ],
    );
  }

  /** The shards that have finished, with their batch counts and their workers' usage. */
  async finished(): Promise<Map<number, ShardDone>> {
    const r = await this.pool.query<{
      shard: number;
      batches: number;
      users: string;
      rss_kib: string;
      cpu_ms: string;
      wall_ms: string;
      rows_sent: string;
      bytes_sent: string;
      result: string;
    }>(
      "SELECT shard, batches, users, rss_kib, cpu_ms, wall_ms, rows_sent, bytes_sent, result FROM qm_batch_shard",
    );
    return new Map(
      r.rows.map((x) => [
        x.shard,
        {
          batches: x.batches,
          users: Number(x.users),
          usage: {
            rssKiB: Number(x.rss_kib),
            cpuMs: Number(x.cpu_ms),
            wallMs: Number(x.wall_ms),
            rowsSent: Number(x.rows_sent),
            bytesSent: Number(x.bytes_sent),
          },
          result: x.result,
        },
      ]),
    );
  }

  /** How many batches shard `shard` has applied. */
  async appliedCount(shard: number): Promise<number> {
    const r = await this.pool.query<{ n: string }>(
      "SELECT count(*) AS n FROM qm_batch_applied WHERE shard = $1",
      [shard],
    );
    return Number(r.rows[0]!.n);
  }

  /** The sums, one kind at a time, in pages in key order. */
  sums(): SummedRows {
    const pool = this.pool;
    return {
      async *rows(kind) {
        let key = "";
        let key2 = "";
        let start = true;
        for (;;) {
          const r = await pool.query<{ key: string; key2: string; a: string; b: string; first: string }>(
            `SELECT key, key2, a, b, first FROM qm_batch_sum
             WHERE kind = $1 AND ($4 OR (key, key2) > ($2, $3)) ORDER BY key, key2 LIMIT ${PAGE}`,
            [kind, key, key2, start],
          );
          if (r.rows.length === 0) return;
          yield r.rows.map((x) => ({
            kind,
            key: x.key,
            key2: x.key2,
            a: Number(x.a),
            b: Number(x.b),
            first: Number(x.first),
          }));
          const last = r.rows[r.rows.length - 1]!;
          key = last.key;
          key2 = last.key2;
          start = false;
          if (r.rows.length < PAGE) return;
        }
      },
    };
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
