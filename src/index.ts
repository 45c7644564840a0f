/**
 * querymask as a library: `import { readLog, anonymize, audit } from "querymask"`. This file is the package's
 * whole public surface (docs/api.md); everything behind it may be reorganised without breaking a caller, so it
 * re-exports facades (src/api/) and plain data types, never a module's internals.
 *
 * Nothing here prints or exits: errors are thrown (`InputError` for bad input, named `file:line: reason`;
 * `ParamError` for a bad method parameter, worded as the CLI words it; `UsageError` for anything else a caller
 * got wrong), progress goes to an optional `onProgress` callback, notes to `onWarning`/`onMessage`.
 */

export {
  type ExperimentConfig,
  type ExperimentOptions,
  type ExperimentResults,
  type ResultRow,
  type RunMeta,
  runExperiment,
} from "./api/experiment.ts";
export {
  type LogStream,
  openLog,
  type ReadLog,
  type ReadLogOptions,
  readLog,
  writeLog,
  writeLogStream,
} from "./api/log.ts";
export {
  type Anonymized,
  type AnonymizeFilesOptions,
  type AnonymizeOptions,
  anonymize,
  anonymizeFiles,
  createStage,
  type FilesAnonymized,
  listMethods,
  type MethodInfo,
  type MethodName,
  type MethodParams,
  type ParsedParams,
  parseParams,
  type RunOptions,
  type StageRunOptions,
} from "./api/methods.ts";
export type { ProgressCallback, ProgressEvent } from "./api/progress.ts";
export {
  type AttackInfo,
  type AttackOptions,
  type AuditOptions,
  attack,
  audit,
  listAttacks,
  listYardsticks,
  type MeasureOptions,
  measure,
  type YardstickInfo,
} from "./api/release.ts";
export {
  type Classified,
  type ClassifyOptions,
  classify,
  classifyStream,
  countClickUsers,
  emptyScrubCounts,
  type ScrubCounts,
  type ScrubOptions,
  scrub,
  scrubStream,
} from "./api/text.ts";
export type { AttackResult } from "./attacks/attack.ts";
export type { AuditReport, CheckResult } from "./audit/audit.ts";
export { createKnowledgeService, type KnowledgeService } from "./classify/service.ts";
export { buildKnowledgeBase } from "./knowledge/knowledge-base.ts";
export { DEFAULT_SNAPSHOT as defaultKnowledgeBasePath } from "./knowledge/snapshot.ts";
export { readCountTable, writeCountTable } from "./log/count-table.ts";
export { describeGuarantee, type Guarantee, type PrivacyModel } from "./log/guarantee.ts";
export type { LogFormat, LogRecord, QueryLog } from "./log/record.ts";
export type { CountTable, Release } from "./methods/method.ts";
export type { Value, YardstickOptions } from "./metrics/yardstick.ts";
export { AllowList } from "./scrub/allow-list.ts";
export { runStage, type Stage } from "./stream/stage.ts";
export { type GenerateOptions, generateLog } from "./synth/generate.ts";
export { InputError, UsageError } from "./util/errors.ts";
export { ParamError, type ParamSpec } from "./util/params.ts";
