/**
 * Opens an experiment report in headless Chromium (Debian's /usr/bin/chromium via playwright-core; install it
 * with scripts/setup-chromium.sh) at 1,280 px wide and checks that it works as a reader would see it: every chart
 * rendered (an SVG with a real size and drawn marks; the frontier's tabs are clicked one by one to show each),
 * no table or chart wider than the page's box, no console errors or page errors, and no network request (the
 * report must be self-contained). Saves a full-page PNG screenshot in test-artifacts/.
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

/** The window width the report is checked at. */
export const WIDTH = 1280;

export interface ReportCheck {
  readonly charts: number;
  readonly problems: string[];
  readonly screenshot: string;
}

interface ChartBox {
  caption: string;
  svg: boolean;
  width: number;
  height: number;
  marks: number;
}

/** In the page: the visible charts, their SVG's size and how many marks it draws. */
const VISIBLE_CHARTS = `[...document.querySelectorAll("figure.chart")]
  .filter((f) => f.offsetParent !== null)
  .map((f) => {
    const svg = f.querySelector("svg");
    const box = svg ? svg.getBoundingClientRect() : { width: 0, height: 0 };
    return {
      caption: f.querySelector("figcaption")?.textContent ?? "(no caption)",
      svg: !!svg,
      width: box.width,
      height: box.height,
      marks: svg ? svg.querySelectorAll(".role-mark path, .role-mark rect, .role-mark text, .role-mark line").length : 0,
    };
  })`;

/** In the page: visible tables and charts that reach past the content box of <main>, or scroll inside it. */
const TOO_WIDE = `(() => {
  const main = document.querySelector("main");
  const right = main.getBoundingClientRect().right - parseFloat(getComputedStyle(main).paddingRight);
  return [...main.querySelectorAll("table, figure.chart svg")]
    .filter((e) => e.getClientRects().length > 0)
    .map((e) => ({
      what: e.tagName.toLowerCase() + ' in "' + (e.closest("section, figure")?.querySelector("h3, figcaption")?.textContent ?? "") + '"',
      over: Math.max(e.getBoundingClientRect().right - right, (e.scrollWidth || 0) - (e.clientWidth || 0)),
    }))
    .filter((x) => x.over > 1);
})()`;

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
    await page.setViewportSize({ width: WIDTH, height: 900 });
    page.on("console", (msg) => {
      if (msg.type() === "error") problems.push(`console error: ${msg.text()}`);
    });
    page.on("pageerror", (err) => problems.push(`page error: ${err.message}`));
    page.on("request", (req) => {
      if (!req.url().startsWith("file:")) problems.push(`network request: ${req.url()}`);
    });
    await page.goto(pathToFileURL(resolve(report)).href, { waitUntil: "load" });
    const measure = () => page.evaluate(VISIBLE_CHARTS) as Promise<ChartBox[]>;
    // Charts behind a tab are measured with their tab chosen, the way a reader sees them.
    const seen = new Map<string, ChartBox>();
    for (const c of await measure()) seen.set(c.caption, c);
    const tabs = await page.$$(".tabs label");
    for (const tab of tabs) {
      await tab.click();
      for (const c of await measure()) seen.set(c.caption, c);
    }
    if (tabs.length > 0) await tabs[0]!.click();
    const charts = [...seen.values()];
    const hidden = await page.$$eval("figure.chart", (f) => f.length);
    if (hidden > charts.length) problems.push(`${hidden - charts.length} charts can never be seen`);
    const wide = (await page.evaluate(TOO_WIDE)) as { what: string; over: number }[];
    for (const w of wide)
      problems.push(`${w.what} is ${Math.round(w.over)} px wider than its box at ${WIDTH} px`);
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
