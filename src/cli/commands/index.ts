/**
 * Every CLI command, listed in this order in `querymask --help`. A command's module (its flags, its action and
 * everything the action imports) is loaded only when that command runs, so `querymask --help`, `--version` and
 * each command start without the others' dependencies. Adding a command = one file in this folder exporting
 * `register(program)` (which defines the command's arguments, options and action), plus one entry here.
 */
import type { Command } from "commander";

export type RegisterCommand = (program: Command) => void;

export interface CommandEntry {
  readonly name: string;
  /** One line for `querymask --help` and the command's own help (the module does not repeat it). */
  readonly description: string;
  /** The positional arguments, as listed in `querymask --help`. */
  readonly args?: string;
  load(): Promise<{ register: RegisterCommand }>;
}

export const commands: readonly CommandEntry[] = [
  {
    name: "demo",
    description: "run the main job on the bundled Excite 1997 sample (what `npm start` does)",
    load: () => import("./demo.ts"),
  },
  {
    name: "stats",
    description: "count users, query events, clicks, next-page requests and distinct queries of a log",
    args: "<log...>",
    load: () => import("./stats.ts"),
  },
  {
    name: "anonymize",
    description: "anonymize a query log with one of the registered methods",
    args: "<log...>",
    load: () => import("./anonymize.ts"),
  },
  {
    name: "generate",
    description: "write a seeded synthetic query log (AOL-like users, sessions, clicks, fake identifiers)",
    load: () => import("./generate.ts"),
  },
  {
    name: "profile",
    description: "build per-user category profiles (count and weight of each category) in a SQLite store",
    args: "<log...>",
    load: () => import("./profile.ts"),
  },
  {
    name: "attack",
    description: "attack a released log and measure how many records it links to their author",
    load: () => import("./attack.ts"),
  },
  {
    name: "audit",
    description: "verify a release on the files alone: privacy model, identifiers, columns, summary counts",
    load: () => import("./audit.ts"),
  },
  {
    name: "check-km",
    description: "check that a log is (k,m)-anonymous: every ≤ m terms of a history are held by ≥ k users",
    args: "<log...>",
    load: () => import("./check-km.ts"),
  },
  {
    name: "experiment",
    description:
      "compare methods and parameters on one log: attacks, privacy and utility yardsticks, HTML report",
    args: "<config>",
    load: () => import("./experiment.ts"),
  },
  {
    name: "simulate-clientside",
    description:
      "simulate client-side protection (Erola et al. 2011): queries forwarded through a social network",
    args: "<log...>",
    load: () => import("./simulate-clientside.ts"),
  },
  {
    name: "scrub",
    description: "drop or tag personal identifiers (names, addresses, phones, e-mails, ids, …) in each query",
    args: "<log...>",
    load: () => import("./scrub.ts"),
  },
  {
    name: "kb",
    description:
      "build or inspect the knowledge base (ODP taxonomy, WordNet bridge, term specificity, spelling)",
    load: () => import("./kb.ts"),
  },
  {
    name: "classify",
    description:
      "assign each query an ODP category and main semantic unit (Pàmies-Estrems et al. 2016, Algorithm 1)",
    args: "<log...>",
    load: () => import("./classify.ts"),
  },
  {
    name: "serve",
    description: "run the pipeline as an HTTP service: POST /ingest, GET /healthz, /readyz, /metrics",
    load: () => import("./serve.ts"),
  },
  {
    name: "cluster",
    description:
      "run the pipeline distributed on NATS JetStream and PostgreSQL (loopback, the project's own ports)",
    // Their clients are optional peers, loaded by the subcommands that run (./cluster.ts checks them before any
    // action, naming every missing one), so `cluster --help` and `cluster run --help` work without them.
    load: () => import("./cluster.ts"),
  },
];
