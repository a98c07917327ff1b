// Time to interactive of tracediff's pages in headless Chromium: what "interactive" means for
// each page, measured one way for the browser test (report_test.mjs prints it) and for the
// bench (scripts/bench.sh set h, bench/budget.tsv holds its budget). Speed is the bench's: the
// pass/fail suite checks what the page does, never how fast a loaded machine did it.
//
//   node interactive.mjs [--chromium /usr/bin/chromium] [--runs N]
//                        [--report R.html] [--big-report B.html] [--trend-report T.html]
//
// Opens each page given N times (default 5), each in a fresh browser context, and prints one
// line per page: `PAGE<TAB>MEDIAN_MS<TAB>every run's ms, comma-separated` (PAGE: report, big,
// trend). Exit 1 when a page does not become interactive (60 s each), 2 on a usage error.
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const frame = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
const urlOf = (file) => pathToFileURL(resolve(file)).href;

// A report (R.html): its two charts drawn and the table's controls live (every row's keys and
// sparkline from #row-data, the flame graph drawn, all on load), then one frame. The page's own
// clock (performance.now(), from the navigation's start): ms.
export async function reportInteractive(page, file) {
  await page.goto(urlOf(file), { waitUntil: 'load' });
  await page.waitForFunction(() => document.querySelectorAll('figure.chart.drawn').length >= 2 &&
    !document.querySelector('.controls').hidden, null, { timeout: 60000 });
  await frame(page);
  return page.evaluate(() => performance.now());
}

// A report far bigger than its page (B.html, 100,000 names a side): from the navigation until it
// shows its top (charts drawn, controls live), its table laid out where it scrolls into view,
// and a click on the Δ / step column sorted it: { shown, rendered, sorted } ms, and the column.
export async function bigInteractive(page, file) {
  const t0 = Date.now();
  await page.goto(urlOf(file), { waitUntil: 'load' });
  await page.waitForFunction(() => document.querySelectorAll('figure.chart.drawn').length >= 2 &&
    !document.querySelector('.controls').hidden, null, { timeout: 60000 });
  await frame(page);
  const shown = Date.now() - t0;
  await page.evaluate(() => document.getElementById('diff-table').scrollIntoView());
  await frame(page);
  const rendered = Date.now() - t0;
  const headers = await page.$$eval('#diff-table thead th', (ths) => ths.map((th) => th.textContent.trim()));
  const column = headers.findIndex((t) => t === 'Δ / step');
  await page.locator('#diff-table thead th').nth(column).locator('button').click();
  await page.waitForFunction((c) => document.querySelectorAll('#diff-table thead th')[c].hasAttribute('aria-sort'), column,
    { timeout: 60000 });
  await frame(page);
  return { shown, rendered, sorted: Date.now() - t0, column };
}

// `tracediff trend`'s page (T.html, static): from the navigation until it is laid out and
// scrolled to its changes: ms.
export async function trendInteractive(page, file) {
  const t0 = Date.now();
  await page.goto(urlOf(file), { waitUntil: 'load' });
  await frame(page);
  await page.evaluate(() => document.getElementById('changes').scrollIntoView());
  await frame(page);
  return Date.now() - t0;
}

const median = (v) => {
  const s = [...v].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

async function main() {
  const { parseArgs } = await import('node:util');
  const { chromium } = await import('playwright-core');
  let args;
  try {
    ({ values: args } = parseArgs({
      options: {
        chromium: { type: 'string', default: '/usr/bin/chromium' },
        runs: { type: 'string', default: '5' },
        report: { type: 'string' },
        'big-report': { type: 'string' },
        'trend-report': { type: 'string' },
      },
    }));
  } catch (e) {
    console.error(`interactive.mjs: ${e.message}`);
    process.exit(2);
  }
  const runs = Number(args.runs);
  const pages = [
    ['report', args.report, (p, f) => reportInteractive(p, f)],
    ['big', args['big-report'], async (p, f) => (await bigInteractive(p, f)).sorted],
    ['trend', args['trend-report'], (p, f) => trendInteractive(p, f)],
  ].filter(([, file]) => file);
  if (!Number.isInteger(runs) || runs < 1 || pages.length === 0) {
    console.error('usage: node interactive.mjs [--runs N] [--report R.html] [--big-report B.html] [--trend-report T.html]');
    process.exit(2);
  }
  const browser = await chromium.launch({ executablePath: args.chromium, headless: true, args: ['--no-sandbox'] });
  let status = 0;
  try {
    for (const [name, file, measure] of pages) {
      const ms = [];
      try {
        for (let i = 0; i < runs; ++i) {
          const ctx = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
          const page = await ctx.newPage();
          const errors = [];
          page.on('pageerror', (e) => errors.push(String(e)));
          ms.push(Math.round(await measure(page, file)));
          await ctx.close();
          if (errors.length) throw new Error(`script errors: ${errors.slice(0, 3).join(' | ')}`);
        }
        console.log(`${name}\t${median(ms)}\t${ms.join(',')}`);
      } catch (e) {
        console.error(`interactive.mjs: ${name} (${file}): ${String(e && e.message ? e.message : e).split('\n')[0]}`);
        status = 1;
      }
    }
  } finally {
    await browser.close();
  }
  process.exit(status);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) await main();
