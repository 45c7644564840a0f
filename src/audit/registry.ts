/**
 * Every audit check, in the order of the table. Adding a check = one file in checks/ exporting an
 * {@link AuditCheck}, plus one line here.
 */
import type { AuditCheck } from "./check.ts";
import { columns } from "./checks/columns.ts";
import { countTable } from "./checks/count-table.ts";
import { clickGraph } from "./checks/graph.ts";
import { claimedGuarantee } from "./checks/guarantee.ts";
import { identifiers } from "./checks/identifiers.ts";
import { kAnonymity } from "./checks/k-anonymity.ts";
import { kmAnonymity } from "./checks/km.ts";
import { summaryCounts } from "./checks/summary.ts";
import { swapInvariants } from "./checks/swap.ts";
import { thresholdUsers } from "./checks/threshold.ts";

export const checks: readonly AuditCheck[] = [
  claimedGuarantee,
  kAnonymity,
  kmAnonymity,
  clickGraph,
  thresholdUsers,
  swapInvariants,
  countTable,
  identifiers,
  columns,
  summaryCounts,
];
