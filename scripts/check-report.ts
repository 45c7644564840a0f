/**
 * Opens an experiment report in headless Chromium (Debian's /usr/bin/chromium via playwright-core; install it
 * with scripts/setup-chromium.sh) and checks that it works as a reader would see it: every chart rendered (an
 * SVG with a real size and drawn marks), no console errors or page errors, and no network request (the report
 * must be self-contained). Saves a full-page PNG screenshot in test-artifacts/.
 *
 *   node --import tsx scripts/check-report.ts [report.html]
 *
 * Without an argument it first builds a report with the main job (bundled sample). Exit 0 = all checks pass,
 * 1 = a check failed, 2 = Chromium is not installed.
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";

export const CHROMIUM = process.env.QUERYMASK_CHROMIUM ?? "/usr/bin/chromium";

export interface ReportCheck {
  readonly charts: number;
  readonly problems: string[];
  readonly screenshot: string;
}

/** Check one report file; see the module comment. */
export async function checkReport(report: string, screenshot: string): Promise<ReportCheck> {
  const profile = await mkdtemp(join(tmpdir(), "querymask-chromium-"));
  const problems: string[] = [];
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      // The fresh --user-data-dir is `profile`, given as launchPersistentContext's first argument.
    ],
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    page.on("console", (msg) => {
      if (msg.type() === "error") problems.push(`console error: ${msg.text()}`);
    });
    page.on("pageerror", (err) => problems.push(`page error: ${err.message}`));
    page.on("request", (req) => {
      if (!req.url().startsWith("file:")) problems.push(`network request: ${req.url()}`);
    });
    await page.goto(pathToFileURL(resolve(report)).href, { waitUntil: "load" });
    const charts = await page.$$eval("figure.chart", (figs) =>
      figs.map((f) => {
        const svg = f.querySelector("svg");
        const box = svg?.getBoundingClientRect();
        return {
          caption: f.querySelector("figcaption")?.textContent ?? "(no caption)",
          svg: !!svg,
          width: box?.width ?? 0,
          height: box?.height ?? 0,
          marks: svg
            ? svg.querySelectorAll(".role-mark path, .role-mark rect, .role-mark text, .role-mark line")
                .length
            : 0,
        };
      }),
    );
    if (charts.length === 0) problems.push("the report has no chart");
    for (const c of charts) {
      if (!c.svg) problems.push(`chart "${c.caption}": no SVG`);
      else if (c.width < 50 || c.height < 50)
        problems.push(`chart "${c.caption}": SVG is ${c.width}×${c.height}`);
      else if (c.marks === 0) problems.push(`chart "${c.caption}": nothing drawn`);
    }
    const tables = await page.$$eval("section.method table", (t) => t.length);
    if (tables === 0) problems.push("the report has no per-method table");
    await mkdir(resolve(screenshot, ".."), { recursive: true });
    await page.screenshot({ path: screenshot, fullPage: true });
    return { charts: charts.length, problems, screenshot };
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
}

async function cli(): Promise<number> {
  if (!existsSync(CHROMIUM)) {
    process.stderr.write(`check-report: ${CHROMIUM} not found; install it with scripts/setup-chromium.sh\n`);
    return 2;
  }
  let report = process.argv[2];
  if (!report) {
    const { runMainJob } = await import("../src/experiment/main-job.ts");
    report = await runMainJob({ out: "test-artifacts/report-run", seed: 1 });
  }
  const result = await checkReport(report, "test-artifacts/report.png");
  for (const p of result.problems) process.stderr.write(`check-report: ${p}\n`);
  process.stdout.write(
    `check-report: ${report}: ${result.charts} charts, ${result.problems.length} problems; screenshot ${result.screenshot}\n`,
  );
  return result.problems.length === 0 ? 0 : 1;
}

if (import.meta.url === pathToFileURL(resolve(process.argv[1] ?? "")).href) {
  cli().then(
    (code) => {
      process.exitCode = code;
    },
    (err) => {
      process.stderr.write(`check-report: ${err instanceof Error ? err.stack : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
