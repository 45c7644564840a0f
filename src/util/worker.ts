/**
 * Start a worker thread on a module of this project. Under tsx (the module is `.ts`) worker threads do not
 * inherit the loader, so the worker first registers tsx and then imports the TypeScript module; compiled code
 * (`.js`) is loaded directly.
 */
import { Worker, type WorkerOptions } from "node:worker_threads";

export function spawnModuleWorker(module: URL, options: WorkerOptions = {}): Worker {
  if (!module.pathname.endsWith(".ts")) return new Worker(module, options);
  const tsx = import.meta.resolve("tsx/esm/api");
  const code = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(module.href)}); });`;
  return new Worker(code, { ...options, eval: true });
}
