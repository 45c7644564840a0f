/**
 * `querymask serve`: an HTTP front door to the pipeline. POST /ingest takes one batch (NDJSON, or AOL TSV with
 * `Content-Type: text/tab-separated-values`); a bad line gets 400 naming its line and reason and nothing of the
 * request is applied; a body over the limit gets 413. GET /healthz (alive), /readyz (accepting), /metrics
 * (Prometheus text; /readyz answers 503 "starting" while the runtime loads). Binds loopback unless told otherwise; on SIGTERM/SIGINT /readyz turns 503 at once, requests
 * are still taken for a grace period (`--grace`), then it stops accepting, finishes what is in flight and closes
 * the runtime (which saves its state).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { UsageError } from "../util/errors.ts";
import { createMetrics, type ServiceMetrics } from "./metrics.ts";
import { parseBody } from "./parse.ts";
import { type Runtime, Unavailable } from "./runtime.ts";

export interface ServeOptions {
  readonly host?: string;
  readonly port?: number;
  /** Largest accepted body in bytes (default 4 MiB). */
  readonly maxBody?: number;
  /**
   * On shutdown, how long /readyz answers 503 while requests are still taken (default 0), so a load balancer that
   * polls it stops sending before connections are refused.
   */
  readonly graceMs?: number;
}

export interface Service {
  readonly server: Server;
  readonly metrics: ServiceMetrics;
  readonly url: string;
  /** Not ready (/readyz 503), the grace period, stop accepting, wait for requests in flight, close the runtime. */
  shutdown(): Promise<void>;
}

class TooLarge extends Error {}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > limit) {
      reject(new TooLarge());
      req.resume();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        reject(new TooLarge());
        req.resume();
        return;
      }
      chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown, type = "application/json"): void {
  const text = typeof body === "string" ? body : `${JSON.stringify(body)}\n`;
  res.writeHead(status, { "content-type": type, "content-length": Buffer.byteLength(text) });
  res.end(text);
}

export async function startService(runtime: Runtime, opts: ServeOptions = {}): Promise<Service> {
  const metrics = createMetrics(runtime.releases);
  const limit = opts.maxBody ?? 4 * 1024 * 1024;
  let ready = true;
  let accepting = true;
  let inflight = 0;
  let idle: (() => void) | undefined;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method === "GET" && path === "/healthz") return send(res, 200, { status: "ok" });
    if (req.method === "GET" && path === "/readyz") {
      const status = !ready ? "shutting down" : runtime.ready() ? "ready" : "starting";
      return send(res, status === "ready" ? 200 : 503, { status, runtime: runtime.name });
    }
    if (req.method === "GET" && path === "/metrics") {
      await runtime.observe(metrics);
      return send(res, 200, await metrics.registry.metrics(), metrics.registry.contentType);
    }
    if (path === "/ingest") {
      if (req.method !== "POST") return send(res, 405, { error: "use POST" });
      if (!accepting) return send(res, 503, { error: "shutting down" });
      let body: Buffer;
      try {
        body = await readBody(req, limit);
      } catch (e) {
        if (e instanceof TooLarge) {
          metrics.rejects.inc({ reason: "too large" });
          return send(res, 413, { error: `body over ${limit} bytes; send smaller batches` });
        }
        throw e;
      }
      const t = metrics.stageSeconds.startTimer({ stage: "parse" });
      const parsed = parseBody(body, req.headers["content-type"]);
      t();
      if (!parsed.ok) {
        metrics.rejects.inc({ reason: "bad line" });
        return send(res, 400, {
          error: `line ${parsed.line}: ${parsed.reason}`,
          line: parsed.line,
          reason: parsed.reason,
        });
      }
      const key = req.headers["idempotency-key"];
      const result = await runtime.ingest(parsed.records, metrics, typeof key === "string" ? key : undefined);
      return send(res, 200, result);
    }
    return send(res, 404, { error: "not found: POST /ingest, GET /healthz, /readyz, /metrics" });
  };

  const server = createServer((req, res) => {
    inflight++;
    handle(req, res)
      .catch((e: unknown) => {
        if (!res.headersSent)
          send(res, e instanceof Unavailable ? 503 : 500, {
            error: e instanceof Error ? e.message : String(e),
          });
      })
      .finally(() => {
        inflight--;
        if (inflight === 0) idle?.();
      });
  });
  const host = opts.host ?? "127.0.0.1";
  const port = opts.port ?? 8080;
  await new Promise<void>((res, rej) => {
    const failed = (e: NodeJS.ErrnoException) => {
      const why =
        e.code === "EADDRINUSE"
          ? "the port is in use (another service?); give --port another"
          : e.code === "EACCES"
            ? "permission denied (a port below 1024 needs root)"
            : e.code === "EADDRNOTAVAIL"
              ? "no such address on this machine"
              : e.message;
      rej(new UsageError(`${host}:${port}: cannot listen: ${why}`));
    };
    server.once("error", failed);
    server.listen(port, host, () => {
      server.off("error", failed);
      res();
    });
  });
  const a = server.address() as AddressInfo;
  return {
    server,
    metrics,
    url: `http://${a.address}:${a.port}`,
    async shutdown() {
      ready = false;
      if ((opts.graceMs ?? 0) > 0) await new Promise((r) => setTimeout(r, opts.graceMs));
      accepting = false;
      const closed = new Promise<void>((r) => server.close(() => r()));
      server.closeIdleConnections();
      if (inflight > 0) await new Promise<void>((r) => (idle = r));
      server.closeIdleConnections(); // the connections of the drained requests, kept alive by their clients
      await closed;
      await runtime.close();
    },
  };
}
