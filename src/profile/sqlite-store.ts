/**
 * The embedded profile store: one SQLite file (better-sqlite3, synchronous, no server). A `load` is one
 * transaction, so a killed run leaves the store as it was (SQLite's write-ahead log discards the uncommitted
 * pages on the next open), and the `input_load` table records each input's content hash. Users and categories
 * get integer ids (cached in memory), so the profile table is a compact (user id, category id) → count B-tree;
 * a batch of updates is sorted by key and applied as upserts `count = count + ?` in one transaction. This is
 * what makes ≥ 200,000 records/s possible.
 */
import Database from "better-sqlite3";
import { UsageError } from "../util/errors.ts";
import {
  type CategoryWeight,
  type LoadedInput,
  type ProfileDelta,
  type ProfileSink,
  type ProfileStore,
  type SinkBatch,
  weigh,
} from "./store.ts";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS user (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS category (id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS profile (
  user INTEGER NOT NULL, category INTEGER NOT NULL, count INTEGER NOT NULL,
  PRIMARY KEY (user, category)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS input_load (
  id INTEGER PRIMARY KEY, sha256 TEXT NOT NULL, file TEXT NOT NULL, bytes INTEGER NOT NULL, at TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS input_load_sha256 ON input_load (sha256);
CREATE TABLE IF NOT EXISTS applied_batch (id TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS stream_position (
  stream TEXT PRIMARY KEY, position INTEGER NOT NULL, last TEXT) WITHOUT ROWID;
CREATE VIEW IF NOT EXISTS profile_named AS
  SELECT u.name AS user, c.path AS category, p.count AS count
  FROM profile p JOIN user u ON u.id = p.user JOIN category c ON c.id = p.category;
`;

export class SqliteProfileStore implements ProfileStore, ProfileSink {
  private readonly db: Database.Database;
  private readonly userIds = new Map<string, number>();
  private readonly categoryIds = new Map<string, number>();
  private readonly apply: (rows: Float64Array) => void;
  private readonly insertUser: Database.Statement<[number, string]>;
  private readonly insertCategory: Database.Statement<[number, string]>;

  /**
   * Open (or create) the store at `path`; ":memory:" for a throwaway one. A file that is not an SQLite database, is
   * damaged, or is another program's database is refused ({@link UsageError}) before anything is written to it.
   */
  constructor(path: string) {
    this.db = openOwn(path);
    this.db.pragma("synchronous = NORMAL");
    // Upserts hit the B-tree at random; a larger page cache keeps it in memory.
    this.db.pragma("cache_size = -131072");
    this.db.exec(SCHEMA);
    this.reloadIds();
    this.insertUser = this.db.prepare("INSERT INTO user (id, name) VALUES (?, ?)");
    this.insertCategory = this.db.prepare("INSERT INTO category (id, path) VALUES (?, ?)");
    const upsert = this.db.prepare<[number, number, number]>(
      `INSERT INTO profile (user, category, count) VALUES (?, ?, ?)
       ON CONFLICT (user, category) DO UPDATE SET count = count + excluded.count`,
    );
    this.apply = this.db.transaction((rows: Float64Array) => {
      for (let i = 0; i < rows.length; i += 3) upsert.run(rows[i]!, rows[i + 1]!, rows[i + 2]!);
    });
  }

  private reloadIds(): void {
    this.userIds.clear();
    this.categoryIds.clear();
    for (const r of this.db.prepare("SELECT id, name FROM user").all() as { id: number; name: string }[]) {
      this.userIds.set(r.name, r.id);
    }
    for (const r of this.db.prepare("SELECT id, path FROM category").all() as {
      id: number;
      path: string;
    }[]) {
      this.categoryIds.set(r.path, r.id);
    }
  }

  private userId(name: string): number {
    let id = this.userIds.get(name);
    if (id === undefined) {
      id = this.userIds.size + 1;
      this.insertUser.run(id, name);
      this.userIds.set(name, id);
    }
    return id;
  }

  private categoryId(path: string): number {
    let id = this.categoryIds.get(path);
    if (id === undefined) {
      id = this.categoryIds.size + 1;
      this.insertCategory.run(id, path);
      this.categoryIds.set(path, id);
    }
    return id;
  }

  add(deltas: readonly ProfileDelta[]): void {
    if (deltas.length === 0) return;
    const keyed = this.db.transaction(() =>
      deltas.map((d) => [this.userId(d.user), this.categoryId(d.category), d.count] as const),
    )();
    // Key order turns random B-tree descents into a near-sequential walk.
    keyed.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    const rows = new Float64Array(keyed.length * 3);
    for (let i = 0; i < keyed.length; i++) rows.set(keyed[i]!, i * 3);
    this.apply(rows);
  }

  profile(user: string): CategoryWeight[] {
    const rows = this.db.prepare("SELECT category, count FROM profile_named WHERE user = ?").all(user) as {
      category: string;
      count: number;
    }[];
    return weigh(rows);
  }

  users(): string[] {
    return (
      this.db.prepare("SELECT DISTINCT user FROM profile_named ORDER BY user").all() as { user: string }[]
    ).map((r) => r.user);
  }

  rows(): ProfileDelta[] {
    return this.db
      .prepare("SELECT user, category, count FROM profile_named ORDER BY user, category")
      .all() as ProfileDelta[];
  }

  loads(sha256: string): LoadedInput[] {
    return this.db
      .prepare("SELECT file, bytes, sha256, at FROM input_load WHERE sha256 = ? ORDER BY id")
      .all(sha256) as LoadedInput[];
  }

  async load<T>(inputs: readonly Omit<LoadedInput, "at">[], work: () => Promise<T>): Promise<T> {
    if (this.db.inTransaction) throw new Error("profile store: a load is already running");
    // IMMEDIATE: take the write lock now, so a concurrent writer fails at once, not after the work.
    this.db.exec("BEGIN IMMEDIATE");
    let result: T;
    try {
      result = await work();
      const at = new Date().toISOString();
      const record = this.db.prepare("INSERT INTO input_load (sha256, file, bytes, at) VALUES (?, ?, ?, ?)");
      for (const i of inputs) record.run(i.sha256, i.file, i.bytes, at);
      this.db.exec("COMMIT");
    } catch (e) {
      if (this.db.inTransaction) this.db.exec("ROLLBACK");
      // The id caches may hold users and categories of the rolled-back transaction.
      this.reloadIds();
      throw e;
    }
    return result;
  }

  async applyBatches(batches: readonly SinkBatch[]): Promise<boolean[]> {
    const mark = this.db.prepare("INSERT OR IGNORE INTO applied_batch (id) VALUES (?)");
    return this.db.transaction(() =>
      batches.map((b) => {
        if (mark.run(b.id).changes === 0) return false;
        this.add(b.deltas);
        return true;
      }),
    )();
  }

  async countApplied(prefix: string): Promise<number> {
    const r = this.db
      .prepare("SELECT count(*) AS n FROM applied_batch WHERE substr(id, 1, ?) = ?")
      .get(prefix.length, prefix) as { n: number };
    return r.n;
  }

  async sortedRows(): Promise<ProfileDelta[]> {
    return this.rows();
  }

  /** The input position of `stream` its profiles cover, and the last event counted (see {@link addAt}). */
  streamMark(stream: string): { position: number; last?: string } | undefined {
    const r = this.db.prepare("SELECT position, last FROM stream_position WHERE stream = ?").get(stream) as
      | { position: number; last: string | null }
      | undefined;
    return r === undefined
      ? undefined
      : { position: r.position, ...(r.last === null ? {} : { last: r.last }) };
  }

  /**
   * {@link add}, recording in the same transaction that the profiles now cover `stream` up to input `position`
   * (and `last`, the caller's note of the last event counted): a replay after a crash skips what is applied.
   */
  addAt(deltas: readonly ProfileDelta[], stream: string, position: number, last: string | undefined): void {
    const mark = this.db.prepare(
      `INSERT INTO stream_position (stream, position, last) VALUES (?, ?, ?)
       ON CONFLICT (stream) DO UPDATE SET position = excluded.position, last = excluded.last`,
    );
    this.db.transaction(() => {
      this.add(deltas);
      mark.run(stream, position, last ?? null);
    })();
  }

  close(): void {
    this.db.close();
  }
}

/** The tables (and their columns) that make a database a profile store. */
const OWN_TABLES: Record<string, readonly string[]> = {
  user: ["id", "name"],
  category: ["id", "path"],
  profile: ["user", "category", "count"],
};

/**
 * Open `path` as a profile store: a new or empty database, or one that has the store's tables. Anything else is
 * refused with the reason, and nothing is written (the write-ahead-log switch is the first write, made after).
 */
function openOwn(path: string): Database.Database {
  let db: Database.Database;
  try {
    db = new Database(path, { fileMustExist: false });
  } catch (e) {
    throw new UsageError(`${path}: cannot open as a profile database (${(e as Error).message})`);
  }
  try {
    const objects = db
      .prepare("SELECT name, type FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
      .all() as {
      name: string;
      type: string;
    }[];
    if (objects.length > 0) {
      const names = new Set(objects.map((o) => o.name));
      const ours = Object.entries(OWN_TABLES).every(([table, columns]) => {
        if (!names.has(table)) return false;
        const have = new Set(
          (db.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as { name: string }[]).map(
            (c) => c.name,
          ),
        );
        return columns.every((c) => have.has(c));
      });
      if (!ours) {
        const listed = objects.slice(0, 5).map((o) => o.name);
        throw new UsageError(
          `${path}: another program's SQLite database (${objects.length} tables and views: ${listed.join(", ")}${objects.length > 5 ? ", …" : ""}); it is left untouched: give --db a new file`,
        );
      }
    }
    db.pragma("journal_mode = WAL");
    return db;
  } catch (e) {
    db.close();
    if (e instanceof UsageError) throw e;
    const code = (e as { code?: string }).code;
    const why =
      code === "SQLITE_NOTADB"
        ? "not an SQLite database"
        : code === "SQLITE_CORRUPT"
          ? "a damaged SQLite database"
          : `cannot read it as a database (${(e as Error).message})`;
    throw new UsageError(`${path}: ${why}; it is left untouched: give --db a new file`);
  }
}
