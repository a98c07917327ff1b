// Checks a tracediff HTML report in headless Chromium, as a reader would use it.
//
//   node report_test.mjs --report R.html --malicious-report M.html --screenshot OUT.png
//                        [--nojs-screenshot OUT2.png] [--compat-report C.html] [--names-report N.html]
//                        [--big-report B.html] [--loader-report L.html] [--perfetto-report P.html]
//                        [--chromium /usr/bin/chromium] [--hostile-name NAME]
//
// R.html: any default-mode report with rows (per-step figures, verdicts, launchers, a call
// tree whose paths include aten::item); its #tree section goes to OUT-tree.png.
// M.html: a report with a row and a call tree node named `</script><img src=x onerror=alert(1)>` (the default
// --hostile-name). C.html: a --hta-compat report (totals only), checked when given.
// N.html: kernels whose long names differ only in the middle, on sides with different GPUs.
// B.html: a report of many more rows than the page embeds (100,000 names a side): under
// 10 MB, says how many rows it left out, and becomes interactive (drawn, its table rendered
// and sorted once).
// L.html: one step a side (nothing testable), a data loader on the main thread on control
// only (tracegen --loader-on-main), sides labelled `<b>main</b>` and `workers`: the removed
// work has width in the default view, frames are coloured by their change (hatched), the
// width buttons carry the labels as text, in both themes.
// MEM.html (--memory-report): tracegen --memory, aten::addmm holding 100 MB on control and
// 300 MB on test: the flame graph's "memory" width, frames as wide as the bytes allocated
// under them, aten::addmm's coloured as more.
// P.html (--perfetto-report): a report with --embed-perfetto: no request before the click on
// "Open in Perfetto"; the click, its target rewritten to a local stand-in page, gets 'PING'
// and, after 'PONG', the embedded step file.
// Prints one line per check and ends with "N passed, M failed"; exits 1 on failure. Times to
// interactive are printed, never checked: a loaded machine is no failure of the page. Their
// budgets are the bench's (interactive.mjs, measured by `bash scripts/bench.sh --sets h`).
import { chromium } from 'playwright-core';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { bigInteractive, reportInteractive, trendInteractive } from './interactive.mjs';

const { values: args } = parseArgs({
  options: {
    report: { type: 'string' },
    'malicious-report': { type: 'string' },
    screenshot: { type: 'string' },
    'nojs-screenshot': { type: 'string' },
    'compat-report': { type: 'string' },
    'names-report': { type: 'string' },
    'big-report': { type: 'string' },
    'loader-report': { type: 'string' },
    'memory-report': { type: 'string' },
    'trend-report': { type: 'string' },
    'trend-runs': { type: 'string' },
    'trend-label': { type: 'string' },
    'perfetto-report': { type: 'string' },
    chromium: { type: 'string', default: '/usr/bin/chromium' },
    'hostile-name': { type: 'string', default: '</script><img src=x onerror=alert(1)>' },
  },
});
if (!args.report || !args['malicious-report'] || !args.screenshot) {
  console.error('usage: node report_test.mjs --report R.html --malicious-report M.html --screenshot OUT.png');
  process.exit(2);
}

let passed = 0;
let failed = 0;
function check(name, ok, detail = '') {
  if (ok) ++passed;
  else ++failed;
  console.log(`${ok ? 'PASS' : 'FAIL'} ${name}${!ok && detail ? ` (${detail})` : ''}`);
}
async function step(name, fn) {
  try {
    await fn();
  } catch (e) {
    check(name, false, String(e && e.stack ? e.stack.split('\n').slice(0, 3).join(' | ') : e));
  }
}

// Opens a report and records what would betray a broken page.
async function open(context, file) {
  const url = file.startsWith('file:') ? file : pathToFileURL(resolve(file)).href;
  const page = await context.newPage();
  page.setDefaultTimeout(10000);
  const log = { errors: [], requests: [], dialogs: [] };
  page.on('console', (m) => {
    if (m.type() === 'error') log.errors.push(m.text());
  });
  page.on('pageerror', (e) => log.errors.push(String(e)));
  page.on('request', (r) => {
    if (r.url() !== url) log.requests.push(r.url());
  });
  page.on('dialog', async (d) => {
    log.dialogs.push(`${d.type()}: ${d.message()}`);
    await d.dismiss();
  });
  await page.goto(url, { waitUntil: 'load' });
  return { page, log, url };
}

// Sort keys of the visible rows, as the page's script reads them.
async function columnKeys(page, col) {
  return page.$$eval(
    '#diff-table tbody tr:not([hidden])',
    (trs, col) =>
      trs.map((tr) => {
        const td = tr.cells[col];
        const type = document.querySelectorAll('#diff-table thead th')[col].dataset.type;
        const name = (c) => c.getAttribute('title') || (c.firstChild && c.firstChild.nodeType === 3 ? c.firstChild.nodeValue : '');
        if (type === 'text') return (col === 0 ? name(td) : td.textContent).toLowerCase();
        const self = document.documentElement.classList.contains('self') && td.hasAttribute('data-s');
        const v = td.getAttribute(self ? 'data-s' : 'data-v');
        return v === null || v === '' ? null : Number(v);
      }),
    col,
  );
}

function isSorted(keys, dir) {
  let seenNull = false;
  for (let i = 0; i < keys.length; ++i) {
    if (keys[i] === null) {
      seenNull = true;
      continue;
    }
    if (seenNull) return `value after a missing one at ${i}`;
    if (i > 0 && keys[i - 1] !== null && (dir > 0 ? keys[i - 1] > keys[i] : keys[i - 1] < keys[i]))
      return `${JSON.stringify(keys[i - 1])} before ${JSON.stringify(keys[i])} at ${i}`;
  }
  return '';
}

// What a chart's canvas shows, cheaply: a hash of its pixels.
async function canvasHash(page, id) {
  return page.$eval(`#chart-${id} canvas`, (c) => {
    const img = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let h = 0;
    for (let i = 0; i < img.length; i += 7) h = (h * 31 + img[i]) | 0;
    return h;
  });
}

// The flame graph's canvas: a hash of its pixels and how many are painted.
async function flameCanvas(page) {
  return page.$eval('#flame-canvas', (c) => {
    const img = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let h = 0;
    let painted = 0;
    for (let i = 3; i < img.length; i += 4) if (img[i] !== 0) ++painted;
    for (let i = 0; i < img.length; i += 7) h = (h * 31 + img[i]) | 0;
    return { hash: h, painted, area: c.width * c.height };
  });
}

// A frame of the flame graph (flame.js exports where it drew each: window.__flame.layout()),
// the first that `pick` accepts; null when none.
async function flameFrame(page, pick) {
  const boxes = await page.evaluate(() => window.__flame.layout());
  return boxes.find(pick) || null;
}

// The page position of a frame's centre, the canvas scrolled into view first.
async function frameCentre(page, box) {
  await page.$eval('#flame-canvas', (c, y) => {
    c.parentElement.scrollTop = Math.max(0, y - 40);
    c.scrollIntoView({ block: 'center' });
  }, box.y);
  // The scroll's events come with the next frame: let them pass before the mouse moves.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
  const r = await page.$eval('#flame-canvas', (c) => {
    const b = c.getBoundingClientRect();
    return { x: b.x, y: b.y };
  });
  return { x: r.x + box.x + box.w / 2, y: r.y + box.y + box.h / 2 };
}

const crumbText = (page) => page.$eval('#flame-crumbs', (n) => n.textContent);
const treeRows = (page) => page.$$eval('#tree-table tbody tr', (t) => t.length);

// The text a reader sees in each visible row's cell (innerText honours display:none,
// once the table is laid out: a long one only is when it comes into view).
async function visibleCells(page, col) {
  await page.$eval('#diff-table', (t) => t.scrollIntoView());
  return page.$$eval('#diff-table tbody tr:not([hidden])', (trs, col) => trs.map((tr) => tr.cells[col].innerText.trim()), col);
}

async function headerIndex(page, test) {
  const headers = await page.$$eval('#diff-table thead th', (ths) => ths.map((th) => th.textContent.trim()));
  return headers.findIndex((t) => test(t));
}

// The contrast ratio (WCAG 2) of the text colour of every visible element matching one of
// `selectors` against its nearest opaque background, computed in the page; the worst few.
async function mutedContrast(page, selectors) {
  return page.evaluate((selectors) => {
    const rgb = (s) => {
      const m = s.match(/rgba?\(([^)]+)\)/);
      if (!m) return null;
      const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
      return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 };
    };
    const lum = (c) => {
      const f = (v) => {
        v /= 255;
        return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b);
    };
    const background = (el) => {
      for (let e = el; e; e = e.parentElement) {
        const c = rgb(getComputedStyle(e).backgroundColor);
        if (c && c.a >= 0.99) return c;
      }
      return rgb(getComputedStyle(document.documentElement).backgroundColor) || { r: 255, g: 255, b: 255, a: 1 };
    };
    const out = [];
    for (const sel of selectors) {
      let n = 0;
      for (const el of document.querySelectorAll(sel)) {
        if (n >= 40) break;
        if (!el.getClientRects().length || !el.textContent.trim()) continue;
        const st = getComputedStyle(el);
        if (st.visibility === 'hidden') continue;
        ++n;
        const fg = rgb(st.color);
        const bg = background(el);
        const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a);
        out.push({ sel, ratio: (hi + 0.05) / (lo + 0.05), fg: st.color, bg: `rgb(${bg.r}, ${bg.g}, ${bg.b})` });
      }
    }
    return out;
  }, selectors);
}
const MUTED = ['.settings', '.legend', '.hint', '#shown', '.card-title', '.card-verdict', 'h2 small', '.left-out', '.foot',
  'table.per-step td:nth-child(8)', 'table.diff .lb', 'table.diff .tn', '.toggles .n', '.vcounts .same', '.vcounts .untested',
  'tr.same td.vd', 'tr.untested td.vd', 'table.per-step tr.same td:nth-child(6)', 'table.kv tbody th', '.stack-row .v', '.fb-legend', '.tree-about',
  '.finding li .pct', '.finding li .lb', 'tr.warm td'];

const browser = await chromium.launch({ executablePath: args.chromium, headless: true, args: ['--no-sandbox'] });
try {
  // --- the report as a reader sees it
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const { page, log } = await open(context, args.report);
  await page.waitForFunction(() => document.querySelectorAll('figure.chart.drawn').length >= 2, null, { timeout: 10000 }).catch(() => {});

  await step('charts drawn', async () => {
    const charts = await page.$$eval('figure.chart', (figs) =>
      figs.map((f) => {
        const c = f.querySelector('canvas');
        if (!c) return { id: f.id, drawn: false, pixels: 0 };
        const ctx = c.getContext('2d');
        const img = ctx.getImageData(0, 0, c.width, c.height).data;
        let pixels = 0;
        for (let i = 3; i < img.length; i += 4) if (img[i] !== 0) ++pixels;
        const fallback = f.querySelector('.fallback');
        return {
          id: f.id,
          drawn: f.classList.contains('drawn'),
          pixels,
          area: c.width * c.height,
          fallbackHidden: !fallback || getComputedStyle(fallback).display === 'none',
        };
      }),
    );
    const largest = charts.filter((c) => c.id !== 'chart-families');
    check('two chart figures of the largest differences', largest.length === 2, `found ${largest.length}`);
    for (const c of charts) {
      check(`${c.id}: canvas has drawn pixels`, c.drawn && c.pixels > 0.01 * c.area, `drawn=${c.drawn} pixels=${c.pixels}/${c.area}`);
      check(`${c.id}: static fallback hidden once drawn`, c.fallbackHidden);
    }
  });

  await step('verdict line and why the step moved', async () => {
    const top = await page.evaluate(() => {
      const line = document.querySelector('#summary .verdict-line');
      const why = document.querySelector('#why');
      const fig = document.getElementById('chart-why');
      const bars = [...document.querySelectorAll('#why .wbar .wlabel')].map((b) => b.textContent);
      const links = [...document.querySelectorAll('#why .wlink a')].map((l) => l.getAttribute('href'));
      return {
        line: line ? line.textContent : '',
        first: line ? line === document.querySelector('#summary h2').nextElementSibling : false,
        mark: line ? line.className : '',
        why: why ? why.querySelector('.why-line').textContent : '',
        drawn: fig ? fig.classList.contains('drawn') : false,
        bars,
        links,
        dangling: links.filter((h) => !document.querySelector(h)),
      };
    });
    check('the verdict line opens the summary, with its mark drawn by the page', top.first && /mark-(fail|pass|warn|neutral)/.test(top.mark), top.mark);
    check('the verdict line leads with the step time', /Step time|step time/.test(top.line), top.line);
    if (top.why) {
      check('why the step moved: the bottom line under the verdict', top.why.startsWith('Why: Step '), top.why);
      check('the waterfall runs from one step to the other', top.bars.length >= 2 && / step$/.test(top.bars[0]) &&
        / step$/.test(top.bars[top.bars.length - 1]), top.bars.join(' | '));
      check('the waterfall is drawn by Chart.js', top.drawn);
      check('each part links to what moved it on the page', top.dangling.length === 0, top.dangling.join(' '));
    }
  });

  await step('kernel families', async () => {
    // A section after the step breakdown: a row per family, each with a verdict, and its chart drawn.
    const fam = await page.evaluate(() => {
      const sec = document.getElementById('families');
      if (!sec) return null;
      const steps = document.getElementById('steps');
      return {
        rows: [...sec.querySelectorAll('table.families tbody tr')].map((tr) => [tr.cells[0].textContent.trim(), tr.className]),
        afterSteps: !steps || !!(steps.compareDocumentPosition(sec) & Node.DOCUMENT_POSITION_FOLLOWING),
        chart: !!sec.querySelector('#chart-families canvas'),
        drawn: !!sec.querySelector('#chart-families.drawn'),
        nav: !!document.querySelector('nav a[href="#families"]'),
      };
    });
    check('families section present', fam !== null);
    if (!fam) return;
    check('families: a row per family', fam.rows.length > 0 && fam.rows.some(([n]) => n === 'GEMM'), JSON.stringify(fam.rows.slice(0, 3)));
    check('families: rows carry a verdict class', fam.rows.every(([, c]) => /worse|better|same|untested/.test(c)));
    check('families: after the step breakdown', fam.afterSteps);
    check('families: chart drawn', fam.chart && fam.drawn);
    check('families: linked from the navigation', fam.nav);
  });

  await step('screenshot', async () => {
    mkdirSync(dirname(resolve(args.screenshot)), { recursive: true });
    await page.screenshot({ path: args.screenshot, fullPage: true });
    check(`screenshot saved to ${args.screenshot}`, existsSync(args.screenshot));
    // The top of the page at a laptop's size: the README's picture (docs/report-screenshot.png).
    const top = args.screenshot.replace(/\.png$/, '-top.png');
    await page.setViewportSize({ width: 1400, height: 1500 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: top });
    await page.setViewportSize({ width: 1400, height: 1000 });
    check(`top-of-page screenshot saved to ${top}`, existsSync(top));
  });

  const total = await page.$$eval('#diff-table tbody tr', (t) => t.length);
  check('table has rows', total > 0, `rows=${total}`);

  await step('sorting', async () => {
    const headers = await page.$$eval('#diff-table thead th', (ths) => ths.map((th) => [th.textContent.trim(), th.dataset.type]));
    // Per-step columns first, then the totals, calls and the groups.
    const wanted = ['Name', 'Verdict', ' / step', 'Δ / step', 'Δ %', ' total', 'Calls / step', 'Change'];
    const cols = [];
    for (const w of wanted) {
      const i = headers.findIndex(([t]) => (w.startsWith(' ') ? t.endsWith(w) && !t.startsWith('Δ') : t === w));
      if (i >= 0 && !cols.includes(i)) cols.push(i);
    }
    check('sortable columns found (per step and totals)', cols.length === wanted.length, JSON.stringify(headers));
    for (const col of cols) {
      const [label, type] = headers[col];
      const th = page.locator('#diff-table thead th').nth(col);
      const first = type === 'num' ? -1 : 1;
      for (const dir of [first, -first]) {
        await th.locator('button').click();
        const keys = await columnKeys(page, col);
        const aria = await th.getAttribute('aria-sort');
        const err = isSorted(keys, dir);
        check(`sort "${label}" ${dir > 0 ? 'ascending' : 'descending'}`,
          !err && keys.length === total && aria === (dir > 0 ? 'ascending' : 'descending'),
          err || `rows=${keys.length}/${total} aria-sort=${aria}`);
      }
    }
    // Numeric columns sort as numbers: 9 before 10 ascending; text would put "10" first.
    const dcol = headers.findIndex(([t]) => t === 'Δ / step');
    const dth = page.locator('#diff-table thead th').nth(dcol);
    for (let i = 0; i < 2 && (await dth.getAttribute('aria-sort')) !== 'ascending'; ++i) await dth.locator('button').click();
    const keys = await columnKeys(page, dcol);
    const shown = await page.$$eval('#diff-table tbody tr:not([hidden])', (trs, c) => trs.map((tr) => tr.cells[c].textContent), dcol);
    const asText = keys.map(String).sort();
    check('numeric sort is numeric', keys.every((k) => typeof k === 'number') && !isSorted(keys, 1) &&
      (new Set(keys).size < 3 || JSON.stringify(asText) !== JSON.stringify(keys.map(String))),
      `first cells: ${shown.slice(0, 3).join(', ')}`);
    await page.click('#reset-order');
    const aria = await page.$$eval('#diff-table thead th[aria-sort]', (t) => t.length);
    check('impact order restored', aria === 0);
  });

  await step('inclusive / self', async () => {
    const ccol = await headerIndex(page, (t) => t.endsWith(' / step') && !t.startsWith('Δ') && !t.startsWith('Calls'));
    const dcol = await headerIndex(page, (t) => t === 'Δ / step');
    const withSelf = await page.$$eval('#diff-table tbody tr', (trs, c) => trs.filter((tr) => tr.cells[c].hasAttribute('data-s')).length, ccol);
    check('rows carry self time (data-s)', withSelf > 0, `rows with self=${withSelf}`);
    const before = await visibleCells(page, ccol);
    const chartBefore = await canvasHash(page, 'duration');
    const countBefore = await canvasHash(page, 'count');
    await page.click('.timebar label:has(#time-self)');
    await page.waitForFunction(() => document.getElementById('chart-duration').dataset.drawn === 'self', null, { timeout: 5000 }).catch(() => {});
    const after = await visibleCells(page, ccol);
    const changed = before.filter((t, i) => t !== after[i]).length;
    check('self: table values change', changed > 0 && changed <= withSelf, `changed=${changed} with self=${withSelf}`);
    const shownOk = await page.$$eval('#diff-table tbody tr', (trs, c) => trs.every((tr) => {
      const td = tr.cells[c];
      const s = td.querySelector('.s');
      return !s || (td.innerText.trim() === s.textContent.trim());
    }), ccol);
    check('self: cells show their self value', shownOk);
    const drawn = await page.$eval('#chart-duration', (f) => [f.dataset.drawn, f.classList.contains('drawn')]);
    const chartAfter = await canvasHash(page, 'duration');
    check('self: duration chart redrawn with self time', drawn[0] === 'self' && drawn[1] && chartAfter !== chartBefore,
      `drawn=${drawn} same pixels=${chartAfter === chartBefore}`);
    const caption = await page.$eval('#chart-duration figcaption', (f) => f.innerText);
    check('self: chart caption says self time', /self time/i.test(caption), caption);
    check('self: count chart unchanged', (await canvasHash(page, 'count')) === countBefore);
    // Sorting now follows self time, both ways.
    const dth = page.locator('#diff-table thead th').nth(dcol);
    for (const dir of [-1, 1]) {
      await dth.locator('button').click();
      const keys = await columnKeys(page, dcol);
      const err = isSorted(keys, dir);
      check(`self: sort "Δ / step" ${dir > 0 ? 'ascending' : 'descending'} by self time`, !err, err);
    }
    await page.click('#reset-order');
    await page.click('.timebar label:has(#time-incl)');
    await page.waitForFunction(() => document.getElementById('chart-duration').dataset.drawn === 'incl', null, { timeout: 5000 }).catch(() => {});
    const back = await visibleCells(page, ccol);
    check('inclusive again: table values restored', JSON.stringify(back) === JSON.stringify(before));
    check('inclusive again: chart redrawn', (await page.$eval('#chart-duration', (f) => f.dataset.drawn)) === 'incl');
  });

  await step('verdicts', async () => {
    const verdicts = await page.$$eval('#diff-table tbody tr', (trs) => trs.map((tr) => tr.dataset.verdict));
    check('every row has a verdict', verdicts.every((v) => ['slower', 'faster', 'same', 'untestable'].includes(v)), [...new Set(verdicts)].join(','));
    const said = { slower: 'slower', faster: 'faster', same: 'same within noise', untestable: 'not testable' };
    const words = await page.$$eval('#diff-table tbody tr', (trs) => trs.map((tr) => [tr.dataset.verdict, tr.querySelector('td.vd').innerText]));
    // A change that comes from the number of calls, or from waiting for the GPU, says so in words.
    const also = { slower: ['more calls', 'waits for the GPU'], faster: ['fewer calls', 'waits for the GPU'] };
    check('verdict said in words, not colour alone',
      words.every(([v, t]) => t.includes(said[v]) || (also[v] || []).some((w) => t.includes(w))), JSON.stringify(words.slice(0, 2)));
    for (const v of ['same', 'slower']) {
      if (!verdicts.includes(v)) continue;
      await page.uncheck(`input[name="verdict"][value="${v}"]`);
      const shown = await page.$$eval('#diff-table tbody tr:not([hidden])', (trs) => trs.map((tr) => tr.dataset.verdict));
      check(`unticking verdict "${v}" hides its rows`,
        !shown.includes(v) && shown.length === verdicts.filter((x) => x !== v).length, `shown=${shown.length}`);
      await page.check(`input[name="verdict"][value="${v}"]`);
    }
    const all = await page.$$eval('#diff-table tbody tr:not([hidden])', (t) => t.length);
    check('ticking verdicts again shows every row', all === total, `visible=${all}/${total}`);
    const grey = await page.$$eval('#diff-table tbody tr[data-verdict="same"] td.d', (tds) =>
      tds.slice(0, 5).map((td) => getComputedStyle(td).color));
    const red = await page.$$eval('#diff-table tbody tr[data-verdict="slower"] td.d', (tds) =>
      tds.slice(0, 5).map((td) => getComputedStyle(td).color));
    check('Δ colour follows the verdict (same: grey, slower: another colour)',
      grey.length === 0 || red.length === 0 || (new Set(grey).size === 1 && !red.includes(grey[0])), `${grey[0]} vs ${red[0]}`);
  });

  await step('launcher view', async () => {
    const n = await page.locator('#launchers details.ln').count();
    check('launcher view has operators', n > 0, `launchers=${n}`);
    const first = page.locator('#launchers details.ln').first();
    const closedKernels = await first.locator('.k:visible').count();
    await first.locator('summary').click();
    const kernels = await first.locator('.k:visible').evaluateAll((ks) => ks.map((k) => k.firstElementChild.textContent));
    const stated = Number((await first.locator('summary > span').last().innerText()).replace(/,/g, ''));
    check('opening a launcher lists its kernels', closedKernels === 0 && kernels.length > 0 && kernels.length === Math.min(stated, 25),
      `closed=${closedKernels} open=${kernels.length} stated=${stated}`);
    const href = await first.locator('.k > a').first().getAttribute('href').catch(() => null);
    if (href) {
      const row = await page.$(`#diff-table tbody tr${href}`);
      check('a kernel links to its table row', row !== null, href);
      await first.locator('.k > a').first().click();
      const hash = await page.evaluate(() => location.hash);
      check('following the kernel link targets the row', hash === href, hash);
    }
    // The other way: a GPU row names its launcher, and the link opens that launcher.
    const lb = page.locator('#diff-table tbody tr td.nm .lb a').first();
    if (await lb.count()) {
      const target = await lb.getAttribute('href');
      await page.evaluate((t) => { const d = document.querySelector(t); if (d) d.open = false; }, target);
      await lb.click();
      await page.waitForFunction((t) => document.querySelector(t).open, target, { timeout: 3000 }).catch(() => {});
      const open = await page.$eval(target, (d) => d.open);
      check('"launched by" link opens the launcher', open, target);
    }
  });

  await step('filtering', async () => {
    const rowText = (trs) =>
      trs.map((tr) => {
        const nm = tr.cells[0];
        const first = nm.firstChild && nm.firstChild.nodeType === 3 ? nm.firstChild.nodeValue : '';
        const lb = nm.querySelector('.lb');
        return [nm.getAttribute('title') || first, first, tr.cells[1].textContent, lb ? lb.textContent : ''].join('\n').toLowerCase();
      });
    const texts = await page.$$eval('#diff-table tbody tr', rowText);
    // A query that matches some rows but not all: a word of the first row's name.
    const query = (texts[0].match(/[a-z_][a-z0-9_]{3,}/) || [texts[0].split('\n')[0]])[0];
    const expected = texts.filter((t) => t.includes(query)).length;
    await page.fill('#filter', query);
    const visible = await page.$$eval('#diff-table tbody tr:not([hidden])', rowText);
    check(`filter "${query}" keeps exactly the matching rows`,
      visible.length === expected && visible.every((t) => t.includes(query)),
      `visible=${visible.length} expected=${expected}`);
    await page.fill('#filter', 'zz-no-such-operator-zz');
    const none = await page.$$eval('#diff-table tbody tr:not([hidden])', (t) => t.length);
    check('filter with no match hides every row', none === 0, `visible=${none}`);
    await page.fill('#filter', '');
    const all = await page.$$eval('#diff-table tbody tr:not([hidden])', (t) => t.length);
    check('clearing the filter shows every row', all === total, `visible=${all}/${total}`);

    for (const [name, attr] of [['change', 'data-change'], ['device', 'data-device'], ['verdict', 'data-verdict']]) {
      const values = await page.$$eval(`input[name="${name}"]`, (b) => b.map((x) => x.value));
      const counts = await page.$$eval('#diff-table tbody tr', (trs, attr) => trs.map((tr) => tr.getAttribute(attr)), attr);
      const value = values.find((v) => counts.includes(v));
      await page.uncheck(`input[name="${name}"][value="${value}"]`);
      const shown = await page.$$eval('#diff-table tbody tr:not([hidden])', (trs, attr) => trs.map((tr) => tr.getAttribute(attr)), attr);
      check(`unticking ${name} "${value}" hides its rows`,
        !shown.includes(value) && shown.length === counts.filter((c) => c !== value).length,
        `shown=${shown.length}`);
      await page.check(`input[name="${name}"][value="${value}"]`);
    }
  });

  // --- the call tree: flame graph, search, zoom, tooltip and the tree table's keyboard
  await step('call tree', async () => {
    check('tree: flame graph shown', await page.locator('#flame').isVisible());
    await page.$eval('#tree', (s) => s.scrollIntoView());
    const first = await flameCanvas(page);
    check('tree: flame canvas drawn', first.painted > 0.05 * first.area, `painted=${first.painted}/${first.area}`);
    const treeShot = args.screenshot.replace(/\.png$/, '-tree.png');
    await page.locator('#tree').screenshot({ path: treeShot });
    check(`call tree screenshot saved to ${treeShot}`, existsSync(treeShot));
    const rows0 = await treeRows(page);
    check('tree: the tree table has rows', rows0 > 0, `rows=${rows0}`);
    const levels = await page.$$eval('#tree-table tbody tr', (t) => [...new Set(t.map((r) => r.getAttribute('aria-level')))].sort());
    check('tree: top two levels shown at start', levels.join() === '1,2', levels.join());
    check('tree: the table is a treegrid', (await page.getAttribute('#tree-table', 'role')) === 'treegrid');

    // Hover: the tooltip names the frame, as text.
    const some = await flameFrame(page, (b) => b.y > 0 && b.w > 60 && b.y < 150);
    let at = await frameCentre(page, some);
    await page.mouse.move(at.x, at.y);
    const tip = await page.$eval('#flame-tip', (t) => ({ shown: !t.hidden, name: t.querySelector('.tip-name').textContent, text: t.textContent }));
    check('tree: hovering a frame shows its tooltip', tip.shown && tip.name === some.name, JSON.stringify(tip).slice(0, 200));
    check('tree: the tooltip has both sides, Δ and the verdict',
      /inclusive/.test(tip.text) && /self/.test(tip.text) && /calls/.test(tip.text) && /\u0394 %/.test(tip.text) &&
      /(slower|faster|same within noise|not testable)/.test(tip.text), tip.text.slice(0, 200));
    await page.mouse.move(1, 1);

    // Click: zoom into the frame (full width), breadcrumb and pixels change; Reset restores.
    const crumb0 = await crumbText(page);
    const target = await flameFrame(page, (b) => b.y > 0 && b.w > 40 && b.w < 600 && b.y < 150);
    at = await frameCentre(page, target);
    await page.mouse.click(at.x, at.y);
    const zoomed = await page.evaluate(() => window.__flame.zoomed());
    const crumb1 = await crumbText(page);
    const full = await flameFrame(page, (b) => b.i === target.i && !b.above);
    const width = await page.$eval('#flame-canvas', (c) => c.getBoundingClientRect().width);
    check('tree: clicking a frame zooms into it', zoomed === target.i && full && full.x === 0 && Math.abs(full.w - width) < 1,
      `zoomed=${zoomed} want ${target.i} box=${JSON.stringify(full)}`);
    check('tree: the breadcrumb shows the zoomed path', crumb1 !== crumb0 && crumb1.endsWith(target.label), `${crumb0} -> ${crumb1}`);
    const afterZoom = await flameCanvas(page);
    check('tree: zooming redraws the canvas', afterZoom.hash !== first.hash);
    const focused = await page.evaluate(() => {
      const a = document.activeElement;
      return a && a.closest('#tree-table') && a.tagName === 'TR' ? a.querySelector('.nm').textContent : null;
    });
    check('tree: the clicked frame\'s row is revealed and focused', focused === target.label, `focused=${focused}`);
    await page.click('#flame-reset');
    check('tree: Reset zooms out', (await page.evaluate(() => window.__flame.zoomed())) === -1 && (await crumbText(page)) === crumb0);
    check('tree: Reset restores the picture', (await flameCanvas(page)).hash === first.hash);
    at = await frameCentre(page, target);
    await page.mouse.click(at.x, at.y);
    await page.keyboard.press('Escape');
    check('tree: Escape zooms out', (await page.evaluate(() => window.__flame.zoomed())) === -1);

    // Search: a count of the matching paths, and the picture changes.
    await page.fill('#flame-search', 'aten::item');
    const hits = await page.$eval('#flame-found', (o) => o.textContent);
    const searched = await flameCanvas(page);
    check('tree: search finds "aten::item"', /^[1-9][\d,]* matching paths?$/.test(hits), hits);
    check('tree: search highlights (canvas changes)', searched.hash !== first.hash);
    await page.fill('#flame-search', 'zz-no-such-frame-zz');
    const none = await page.$eval('#flame-found', (o) => o.textContent);
    check('tree: search for nonsense finds nothing', none === '0 matching paths', none);
    await page.fill('#flame-search', '');
    check('tree: clearing the search restores the picture', (await flameCanvas(page)).hash === first.hash);

    // The width and the time switches redraw.
    await page.click('.flame-switch label:has(input[value="control"])');
    check('tree: width by the control side redraws', (await flameCanvas(page)).hash !== first.hash);
    await page.click('.flame-switch label:has(input[value="larger"])');
    await page.click('.flame-switch label:has(input[value="gpu"])');
    check('tree: GPU time redraws', (await flameCanvas(page)).hash !== first.hash);
    await page.click('.flame-switch label:has(input[value="host"])');
    check('tree: back to the larger side and host time, the same picture', (await flameCanvas(page)).hash === first.hash);

    // Keyboard: a roving tabindex over the rows; Down moves, Right expands, Left collapses, Enter zooms.
    const tabbable = await page.$$eval('#tree-table tbody tr[tabindex="0"]', (t) => t.length);
    check('tree: one row in the tab order', tabbable === 1, `tabbable=${tabbable}`);
    await page.focus('#tree-table tbody tr:first-child');
    await page.keyboard.press('ArrowDown');
    const second = await page.evaluate(() => {
      const a = document.activeElement;
      return a === document.querySelector('#tree-table tbody tr:nth-child(2)') && a.tabIndex === 0;
    });
    check('tree: ArrowDown moves to the next row', second);
    const closed = await page.$eval('#tree-table tbody', (tb) => [...tb.rows].findIndex((r) => r.getAttribute('aria-expanded') === 'false'));
    check('tree: a collapsed row to expand', closed >= 0);
    await page.focus(`#tree-table tbody tr:nth-child(${closed + 1})`);
    await page.keyboard.press('ArrowRight');
    const opened = await page.$eval(`#tree-table tbody tr:nth-child(${closed + 1})`, (r) => r.getAttribute('aria-expanded'));
    const rows1 = await treeRows(page);
    check('tree: ArrowRight expands a collapsed row', opened === 'true' && rows1 > rows0, `expanded=${opened} rows ${rows0} -> ${rows1}`);
    await page.keyboard.press('ArrowLeft');
    check('tree: ArrowLeft collapses it again', (await treeRows(page)) === rows0);
    const name = await page.$eval(`#tree-table tbody tr:nth-child(${closed + 1}) .nm`, (n) => n.textContent);
    await page.keyboard.press('Enter');
    check('tree: Enter zooms the flame graph to the row', (await page.evaluate(() => window.__flame.zoomed())) >= 0 &&
      (await crumbText(page)).endsWith(name), await crumbText(page));
    await page.click('#flame-reset');
  });

  check('no console errors', log.errors.length === 0, log.errors.slice(0, 3).join(' | '));
  check('no request but the file itself', log.requests.length === 0, log.requests.slice(0, 3).join(' '));
  check('no dialog', log.dialogs.length === 0, log.dialogs.join(' | '));
  await context.close();

  // --- interactive: charts drawn, the table's controls live with every row's keys and
  // sparkline from #row-data, the flame graph drawn with every frame named (names of table
  // rows come from the rows). The time it took is printed, not checked (bench.sh set h).
  await step('interactive, everything rendered', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const p = await ctx.newPage();
    const errors = [];
    p.on('pageerror', (e) => errors.push(String(e)));
    const ms = await reportInteractive(p, args.report);
    const got = await p.evaluate(() => {
      const rows = [...document.querySelectorAll('#diff-table tbody tr')];
      const data = document.getElementById('row-data');
      const tree = document.getElementById('tree-data');
      return {
        rows: rows.length,
        dataRows: data ? JSON.parse(data.textContent).rows.length : -1,
        keyed: rows.filter((tr) => tr.hasAttribute('data-verdict') && tr.cells[3].hasAttribute('data-v')).length,
        sparks: document.querySelectorAll('#diff-table td.vd svg.spark').length,
        treeNodes: tree ? JSON.parse(tree.textContent).nodes.length : 0,
        frames: window.__flame ? window.__flame.layout() : [],
      };
    });
    console.log(`interactive after ${Math.round(ms)} ms (${got.rows} rows, ${got.sparks} sparklines, ${got.treeNodes} tree nodes; ` +
      'not a check: bench.sh set h)');
    check('every row of the table has its keys and a sparkline', got.rows > 0 && got.dataRows === got.rows &&
      got.keyed === got.rows && got.sparks === got.rows, JSON.stringify({ ...got, frames: got.frames.length }));
    check('the flame graph draws frames, each named', got.treeNodes > 0 && got.frames.length > 0 &&
      got.frames.every((f) => typeof f.name === 'string' && f.name.length > 0), JSON.stringify(got.frames.find((f) => !f.name)));
    check('no script errors (interactive check)', errors.length === 0, errors.join(' | '));
    await ctx.close();
  });

  // --- the hostile name
  // R.html, and N.html (a warm-up step a side) when given.
  for (const [tag, file] of [['', args.report], ['names report: ', args['names-report']]]) {
  if (!file) continue;
  await step(`${tag}the spread: sparklines and step time per step`, async () => {
    const ctx = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const { page: p } = await open(ctx, file);
    const sp = await p.evaluate(() => {
      const rows = [...document.querySelectorAll('#diff-table tbody tr')];
      const pts = (pl) => (pl ? pl.getAttribute('points').trim().split(/\s+/).map((p) => p.split(',').map(Number)) : []);
      const sparks = rows.map((tr) => {
        const svg = tr.querySelector('td.vd svg.spark');
        if (!svg) return null;
        const c = pts(svg.querySelector('polyline.c'));
        const t = pts(svg.querySelector('polyline.t'));
        const b = svg.getBoundingClientRect();
        return { c: c.length, t: t.length, inBox: [...c, ...t].every(([x, y]) => x >= 0 && x <= 72 && y >= 0 && y <= 18), w: b.width };
      });
      const fig = document.getElementById('step-chart');
      const chart = fig && fig.querySelector('svg.step-chart');
      const details = [...document.querySelectorAll('details.step-details tbody tr')];
      const cut = !!document.querySelector('details.step-details .hint');
      return {
        rows: rows.length,
        sparks: sparks.filter(Boolean),
        chart: chart ? {
          c: pts(chart.querySelector('polyline.c')).length,
          t: pts(chart.querySelector('polyline.t')).length,
          warm: chart.querySelectorAll('circle.warm').length,
          width: chart.getBoundingClientRect().width,
          figWidth: fig.getBoundingClientRect().width,
        } : null,
        steps: { c: details.filter((tr) => tr.classList.contains('side-c')).length, t: details.filter((tr) => tr.classList.contains('side-t')).length,
          warm: details.filter((tr) => tr.classList.contains('warm')).length, cut },
      };
    });
    check(`${tag}sparklines: one in every row`, sp.sparks.length === sp.rows && sp.rows > 0, `${sp.sparks.length} of ${sp.rows}`);
    check(`${tag}sparklines: both sides, at most 20 points each, inside their box`,
      sp.sparks.every((k) => k.c >= 2 && k.t >= 2 && k.c <= 20 && k.t <= 20 && k.inBox && k.w > 40), JSON.stringify(sp.sparks.find((k) => !(k.c >= 2 && k.t >= 2 && k.inBox))));
    check(`${tag}step time per step: chart present`, sp.chart !== null);
    if (sp.chart) {
      check(`${tag}step time per step: a point per step on each side`, sp.steps.cut || (sp.chart.c === sp.steps.c && sp.chart.t === sp.steps.t),
        `${JSON.stringify(sp.chart)} vs ${JSON.stringify(sp.steps)}`);
      check(`${tag}step time per step: warm-up steps marked`, sp.steps.cut || (sp.chart.warm === sp.steps.warm && (tag === '' || sp.steps.warm > 0)), `${sp.chart.warm} vs ${sp.steps.warm}`);
      check(`${tag}step time per step: spans its figure`, sp.chart.width >= 0.6 * sp.chart.figWidth, `${sp.chart.width} of ${sp.chart.figWidth}`);
    }
    await ctx.close();
  });
  }

  await step('filter syntax, URL hash, charts follow, chart click', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const { page: p, log: l, url } = await open(ctx, args.report);
    await p.waitForFunction(() => document.querySelectorAll('figure.chart.drawn').length >= 2, null, { timeout: 10000 }).catch(() => {});
    // What the filter sees of a row: its name (full), category and launcher, lower case.
    const visible = () => p.$$eval('#diff-table tbody tr:not([hidden])', (trs) => trs.map((tr) => {
      const nm = tr.cells[0];
      const name = nm.getAttribute('title') || (nm.firstChild && nm.firstChild.nodeType === 3 ? nm.firstChild.nodeValue : '');
      return { name, text: (name + '\n' + nm.textContent + '\n' + tr.cells[1].textContent).toLowerCase() };
    }));
    const setFilter = async (q) => {
      await p.fill('#filter', q);
      await p.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
    };
    const all = (await visible()).length;
    await setFilter('aten');
    const aten = await visible();
    await setFilter('aten mm');
    const both = await visible();
    check('filter: several terms are ANDed', both.length > 0 && both.length < aten.length &&
      both.every((r) => r.text.includes('aten') && r.text.includes('mm')), `${both.length} of ${aten.length}`);
    await setFilter('-aten');
    const notAten = await visible();
    check('filter: -term excludes', notAten.length > 0 && notAten.every((r) => !r.text.includes('aten')) &&
      notAten.length + aten.length === all, `${notAten.length} + ${aten.length} vs ${all}`);
    await setFilter('/^aten::(mm|bmm|addmm)$/');
    const re = await visible();
    check('filter: /regex/ matches', re.length > 0 && re.every((r) => /^aten::(mm|bmm|addmm)$/m.test(r.text)),
      re.slice(0, 4).map((r) => r.name).join(', '));
    await setFilter('/[unclosed/');
    const bad = await visible();
    check('filter: an invalid regex is text, no exception', l.errors.length === 0 &&
      bad.length === (await p.$$eval('#diff-table tbody tr', (trs) => trs.filter((tr) => tr.textContent.toLowerCase().includes('/[unclosed/')).length)),
      `${bad.length} rows; ${l.errors.join('; ')}`);

    // The charts follow the filter: the time chart shows the visible rows only.
    const chartNames = () => p.evaluate(() => {
      const c = Chart.getChart(document.querySelector('#chart-duration canvas'));
      return c ? c.data.labels.map(String) : null;
    });
    const before = await chartNames();
    const hash0 = await canvasHash(p, 'duration');
    await setFilter('aten -mm');
    const vis = (await visible()).map((r) => r.name);
    const after = await chartNames();
    const inVis = (label) => vis.some((n) => n.startsWith(label.replace(/\u2026$/, '')));
    check('charts follow the filter: bars of visible rows only', after && after.length > 0 && after.every(inVis) &&
      (await canvasHash(p, 'duration')) !== hash0, JSON.stringify(after && after.slice(0, 3)));
    check('charts follow the filter: a hidden row is no bar', !after.some((lab) => /^aten::mm$/.test(lab)));

    // The view in the URL: filter, sort and an unticked box, opened again elsewhere.
    const dcol = await headerIndex(p, (t) => t.startsWith('Δ') && t.includes('/ step'));
    await p.locator('#diff-table thead th').nth(dcol).locator('button').click();
    await p.evaluate(() => {
      const box = document.querySelector('.controls input[name="verdict"][value="same"]');
      box.checked = false;
      box.dispatchEvent(new Event('change', { bubbles: true }));
    });
    const hash = await p.evaluate(() => location.hash);
    const order = (await visible()).map((r) => r.name);
    check('hash holds the view', /f=/.test(hash) && /s=\d+[ad]/.test(hash) && /x=/.test(hash), hash);
    const { page: q, log: lq } = await open(ctx, url + hash);
    await q.waitForFunction(() => document.querySelectorAll('figure.chart.drawn').length >= 2, null, { timeout: 10000 }).catch(() => {});
    const restored = await q.evaluate((dcol) => ({
      filter: document.getElementById('filter').value,
      sort: document.querySelectorAll('#diff-table thead th')[dcol].getAttribute('aria-sort'),
      same: document.querySelector('.controls input[name="verdict"][value="same"]').checked,
      order: [...document.querySelectorAll('#diff-table tbody tr:not([hidden])')].map((tr) => {
        const nm = tr.cells[0];
        return nm.getAttribute('title') || (nm.firstChild && nm.firstChild.nodeType === 3 ? nm.firstChild.nodeValue : '');
      }),
      labels: Chart.getChart(document.querySelector('#chart-duration canvas')).data.labels.map(String),
    }), dcol);
    check('hash restored: filter', restored.filter === 'aten -mm', restored.filter);
    check('hash restored: sort', restored.sort !== null, String(restored.sort));
    check('hash restored: unticked box', restored.same === false);
    check('hash restored: same rows in the same order', JSON.stringify(restored.order) === JSON.stringify(order),
      `${restored.order.length} vs ${order.length}`);
    check('hash restored: charts follow', restored.labels.every(inVis));
    check('hash restored: no script errors', lq.errors.length === 0, lq.errors.join('; '));
    await q.close();

    // A click on a bar: its row scrolled into view and highlighted.
    await setFilter('');
    const bar = await p.evaluate(() => {
      const canvas = document.querySelector('#chart-duration canvas');
      canvas.scrollIntoView({ block: 'center' });
      const c = Chart.getChart(canvas);
      const el = c.getDatasetMeta(1).data[0];
      const b = canvas.getBoundingClientRect();
      return { x: b.x + (el.x + el.base) / 2, y: b.y + el.y, label: String(c.data.labels[0]) };
    });
    await p.mouse.click(bar.x, bar.y);
    await p.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 50))));
    const lit = await p.evaluate(() => {
      const tr = document.querySelector('#diff-table tbody tr.lit');
      if (!tr) return null;
      const nm = tr.cells[0];
      const r = tr.getBoundingClientRect();
      return { name: nm.getAttribute('title') || nm.firstChild.nodeValue, inView: r.top >= 0 && r.bottom <= innerHeight };
    });
    check('chart click: the bar\'s row highlighted and in view', lit && lit.inView && lit.name.startsWith(bar.label.replace(/\u2026$/, '')),
      JSON.stringify({ lit, bar: bar.label }));
    check('filter/hash/chart: no script errors', l.errors.length === 0, l.errors.join('; '));
    await ctx.close();
  });

  await step('dark mode and contrast', async () => {
    for (const scheme of ['light', 'dark']) {
      const ctx = await browser.newContext({ viewport: { width: 1400, height: 1000 }, colorScheme: scheme });
      const { page: p, log: l } = await open(ctx, args.report);
      await p.waitForFunction(() => document.querySelectorAll('figure.chart.drawn').length >= 2, null, { timeout: 10000 }).catch(() => {});
      const look = await p.evaluate(() => {
        const st = (el) => getComputedStyle(el);
        // A chart of rows (the waterfall colours its bars one by one).
        const chart = Object.values(window.Chart ? Chart.instances : {}).find((c) => c.canvas.closest('figure.chart'));
        return {
          bg: st(document.body).backgroundColor,
          fg: st(document.body).color,
          control: st(document.documentElement).getPropertyValue('--control').trim(),
          bar: chart ? String(chart.data.datasets[0].backgroundColor) : '',
          tick: chart ? String(chart.options.scales.x.ticks.color || Chart.defaults.color) : '',
        };
      });
      const dark = (c) => {
        const p = c.match(/\d+/g).map(Number);
        return 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2] < 80;
      };
      check(`${scheme}: page background is ${scheme}`, dark(look.bg) === (scheme === 'dark'), look.bg);
      check(`${scheme}: text is the opposite of the background`, dark(look.fg) !== (scheme === 'dark'), look.fg);
      check(`${scheme}: charts take their colours from the theme`, look.bar !== '' && look.bar === look.control, `${look.bar} vs ${look.control}`);
      const ratios = await mutedContrast(p, MUTED);
      const worst = ratios.filter((r) => r.ratio < 4.5);
      check(`${scheme}: muted text measured (${ratios.length} elements)`, ratios.length >= 10, String(ratios.length));
      check(`${scheme}: muted text contrast >= 4.5:1`, worst.length === 0,
        worst.slice(0, 4).map((w) => `${w.sel} ${w.fg} on ${w.bg}: ${w.ratio.toFixed(2)}`).join('; '));
      check(`${scheme}: no script errors`, l.errors.length === 0, l.errors.join('; '));
      if (scheme === 'dark') await p.screenshot({ path: args.screenshot.replace(/\.png$/, '-dark.png') });
      await ctx.close();
    }
  });

  await step('print', async () => {
    // A4 at 96 dpi less the page's 12 mm margins: about 703 CSS pixels of width.
    const ctx = await browser.newContext({ viewport: { width: 703, height: 1000 } });
    const { page: p, log: l } = await open(ctx, args.report);
    await p.waitForFunction(() => document.querySelectorAll('figure.chart.drawn').length >= 2, null, { timeout: 10000 }).catch(() => {});
    await p.emulateMedia({ media: 'print' });
    await p.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
    await p.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 50))));
    const pr = await p.evaluate(() => {
      const st = (el) => getComputedStyle(el);
      const bar = document.querySelector('.b, .stack-bar span, .key');
      const table = document.getElementById('diff-table');
      return {
        nav: st(document.querySelector('nav')).display,
        adjust: bar ? st(bar).printColorAdjust || st(bar).webkitPrintColorAdjust : '',
        width: document.documentElement.clientWidth,
        scroll: document.documentElement.scrollWidth,
        table: table ? table.getBoundingClientRect().width : 0,
        tableScroll: table ? table.scrollWidth : 0,
        canvases: [...document.querySelectorAll('figure.chart.drawn')].map((f) => {
          const c = f.querySelector('canvas');
          return [c.getBoundingClientRect().width, f.getBoundingClientRect().width];
        }),
      };
    });
    check('print: navigation hidden', pr.nav === 'none', pr.nav);
    check('print: colours kept (print-color-adjust: exact)', pr.adjust === 'exact', pr.adjust);
    check('print: the page is no wider than A4', pr.scroll <= pr.width, `${pr.scroll} > ${pr.width}`);
    check('print: the table fits the page', pr.table > 0 && pr.table <= pr.width && pr.tableScroll <= pr.width + 1,
      `table ${pr.table}/${pr.tableScroll}, page ${pr.width}`);
    check('print: charts at full width', pr.canvases.length >= 2 && pr.canvases.every(([c, f]) => c >= 0.85 * f && c <= f + 1),
      JSON.stringify(pr.canvases));
    const pdf = await p.pdf({ format: 'A4', printBackground: true });
    check('print: page.pdf() makes a PDF', pdf.length > 10000 && pdf.subarray(0, 5).toString() === '%PDF-', String(pdf.length));
    check('print: no script errors', l.errors.length === 0, l.errors.join('; '));
    await ctx.close();
  });

  await step('narrow windows', async () => {
    // 900 px: a jump to any section leaves its heading below the sticky header.
    const ctx = await browser.newContext({ viewport: { width: 900, height: 800 } });
    const { page: p } = await open(ctx, args.report);
    const targets = await p.$$eval('nav a[href^="#"]', (as) => as.map((a) => a.getAttribute('href')));
    const hidden = [];
    for (const href of targets) {
      await p.click(`nav a[href="${href}"]`);
      await p.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 30))));
      const r = await p.evaluate((id) => {
        const sec = document.getElementById(id);
        const h = sec && (sec.querySelector('h2') || sec);
        const top = document.querySelector('.top').getBoundingClientRect().bottom;
        return { head: h ? h.getBoundingClientRect().top : -1, top, end: window.scrollY + innerHeight >= document.documentElement.scrollHeight - 2 };
      }, href.slice(1));
      // At the page's end the browser cannot scroll further: the heading is then lower still.
      if (r.head < r.top) hidden.push(`${href}: heading at ${r.head}, header ends at ${r.top}`);
    }
    check(`900 px: no heading hidden under the navigation (${targets.length} links)`, targets.length >= 4 && hidden.length === 0, hidden.join('; '));
    await ctx.close();
    // 400 px: the page never scrolls sideways; the table scrolls inside its own box.
    const ctx4 = await browser.newContext({ viewport: { width: 400, height: 800 } });
    const { page: q, log: l4 } = await open(ctx4, args.report);
    await q.waitForFunction(() => document.querySelectorAll('figure.chart.drawn').length >= 2, null, { timeout: 10000 }).catch(() => {});
    await q.$eval('#diff-table', (t) => t.scrollIntoView());
    const n = await q.evaluate(() => {
      const wide = [...document.querySelectorAll('body *')]
        .filter((e) => e.getClientRects().length && e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
        .filter((e) => !e.closest('.table-wrap, .tree-wrap, .launchers, table.kv, .split > table, .flame-canvas-wrap'))
        .slice(0, 3)
        .map((e) => `${e.tagName}.${e.className}`);
      const wrap = document.querySelector('.table-wrap');
      return { scroll: document.documentElement.scrollWidth, wide, wrapScrolls: wrap && getComputedStyle(wrap).overflowX === 'auto' };
    });
    check('400 px: the page does not scroll sideways', n.scroll <= 400, `scrollWidth ${n.scroll}; wide: ${n.wide.join(', ')}`);
    check('400 px: the table scrolls inside its own box', n.wrapScrolls === true);
    // The tree table keeps the path, both sides and Δ in view (issue #25: one data column).
    const treeCols = await q.evaluate(() => {
      const wrap = document.querySelector('.tree-wrap');
      if (!wrap) return null;
      wrap.scrollIntoView();
      const right = wrap.getBoundingClientRect().right;
      return [...document.querySelectorAll('#tree-table thead th')]
        .filter((th) => th.getClientRects().length && th.getBoundingClientRect().right <= right + 1)
        .map((th) => th.textContent);
    });
    check('400 px: the tree table shows the path, both sides and \u0394', treeCols === null ||
      (treeCols.length >= 4 && treeCols[0] === 'Call path' && treeCols.includes('\u0394')), JSON.stringify(treeCols));
    await q.screenshot({ path: args.screenshot.replace(/\.png$/, '-400.png') });
    check('400 px: no script errors', l4.errors.length === 0, l4.errors.join('; '));
    await ctx4.close();
  });

  await step('hostile name', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    await ctx.addInitScript(() => {
      window.__pwned = false;
      window.alert = () => { window.__pwned = true; };
    });
    const { page, log } = await open(ctx, args['malicious-report']);
    await page.waitForTimeout(500);
    const hostile = args['hostile-name'];
    const found = await page.evaluate((hostile) => {
      const cells = [...document.querySelectorAll('#diff-table td.nm')];
      return {
        cell: cells.some((td) => (td.firstChild && td.firstChild.nodeValue === hostile) || td.getAttribute('title') === hostile),
        launcher: [...document.querySelectorAll('#launchers details.ln summary .nm')].some((s) => s.textContent === hostile),
        group: [...document.querySelectorAll('ol.names li')].some((li) => li.textContent === hostile),
        images: document.images.length,
        pwned: window.__pwned,
        data: JSON.parse(document.getElementById('data').textContent).charts.some((c) =>
          c.rows.some((r) => r.name === hostile)),
      };
    }, hostile);
    check('hostile name shown as text in the table', found.cell);
    check('hostile name shown as text in the groups', found.group);
    check('hostile name shown as text in the launcher view', found.launcher);
    check('hostile name in the chart data, intact', found.data);
    check('hostile name made no element', found.images === 0, `images=${found.images}`);
    check('hostile name ran nothing', !found.pwned && log.dialogs.length === 0, log.dialogs.join(' | '));
    await page.fill('#filter', hostile.slice(0, 12));
    const hits = await page.$$eval('#diff-table tbody tr:not([hidden])', (t) => t.length);
    check('hostile name can be filtered for', hits >= 1, `hits=${hits}`);
    // The call tree: the name as text in the tree table and the tooltip, and found by search.
    const treeCell = await page.$$eval('#tree-table td .nm', (ns, hostile) =>
      ns.some((n) => n.firstChild && n.firstChild.nodeValue === hostile), hostile);
    check('hostile name shown as text in the tree table', treeCell);
    const frame = await flameFrame(page, (b) => b.name === hostile && b.w >= 4);
    check('hostile name is a frame of the flame graph', !!frame);
    if (frame) {
      const at = await frameCentre(page, frame);
      await page.mouse.move(at.x, at.y);
      const tip = await page.$eval('#flame-tip', (t) => (t.hidden ? null : t.querySelector('.tip-name').firstChild.nodeValue));
      check('hostile name shown as text in the tooltip', tip === hostile, String(tip));
      await page.mouse.move(1, 1);
    }
    await page.fill('#flame-search', hostile.slice(2, 14));
    const treeHits = await page.$eval('#flame-found', (o) => o.textContent);
    check('hostile name found by the flame graph search', /^[1-9]/.test(treeHits), treeHits);
    const after = await page.evaluate(() => ({ images: document.images.length, pwned: window.__pwned }));
    check('hostile name in the tree made no element and ran nothing', after.images === 0 && !after.pwned && log.dialogs.length === 0,
      JSON.stringify(after));
    check('no console errors (hostile report)', log.errors.length === 0, log.errors.slice(0, 3).join(' | '));
    check('no request (hostile report)', log.requests.length === 0, log.requests.slice(0, 3).join(' '));
    await ctx.close();
  });

  // Issue 31: a filter restored from the URL's hash runs on every row. A link with a
  // pattern that backtracks exponentially on the hostile report's 'aaa…a!' row froze the
  // page; the filter's regular expressions run in linear time, so it loads at once.
  await step('an exponential regex in the hash', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    try {
      const pattern = '/^(a+)+$/';
      const url = pathToFileURL(resolve(args['malicious-report'])).href + '#f=' + encodeURIComponent(pattern);
      // A backtracking filter would never finish (2^40 steps on 'aaa…a!'): the page would not
      // load within open()'s 10 s, and the step fail. How long it took is printed, not checked.
      const start = Date.now();
      const { page, log } = await open(ctx, url);
      const state = await page.evaluate(() => ({
        filter: document.getElementById('filter').value,
        shown: document.querySelectorAll('#diff-table tbody tr:not([hidden])').length,
      }));
      console.log(`exponential regex in the hash: the page loaded after ${(Date.now() - start) / 1000} s`);
      check('exponential regex in the hash: restored, no row matches', state.filter === pattern && state.shown === 0,
        JSON.stringify(state));
      await page.fill('#filter', '/^a+!$/');
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
      const hits = await page.$$eval('#diff-table tbody tr:not([hidden])', (t) => t.length);
      check('the regex filter still finds the row', hits === 1, `hits=${hits}`);
      check('exponential regex in the hash: no script errors', log.errors.length === 0, log.errors.join('; '));
    } finally {
      await ctx.close();
    }
  });

  // --- without JavaScript
  await step('without JavaScript', async () => {
    const ctx = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1400, height: 1000 } });
    const { page, log } = await open(ctx, args.report);
    const rows = await page.locator('#diff-table tbody tr').count();
    const visibleRows = await page.locator('#diff-table tbody tr:visible').count();
    const headline = await page.locator('#summary .cards .card').count();
    const groups = await page.locator('details.group').count();
    const fallbackRows = await page.locator('.fallback .fb-row:visible').count();
    const controls = await page.locator('.controls').isVisible();
    check('no-JS: table shows every row', rows > 0 && visibleRows === rows, `rows=${rows} visible=${visibleRows}`);
    check('no-JS: headline and groups shown', headline > 0 && groups === 5, `cards=${headline} groups=${groups}`);
    check('no-JS: static chart bars shown', fallbackRows > 0, `bars=${fallbackRows}`);
    check('no-JS: script-only controls hidden', !controls);
    const steps = await page.locator('#steps table.went tbody tr').count();
    check('no-JS: where the step time went', steps >= 9, `rows=${steps}`);
    const launchers = await page.locator('#launchers details.ln').count();
    check('no-JS: launcher view there', launchers > 0, `launchers=${launchers}`);
    // The inclusive/self switch works by CSS alone.
    const ccol = await headerIndex(page, (t) => t.endsWith(' / step') && !t.startsWith('Δ') && !t.startsWith('Calls'));
    const before = await visibleCells(page, ccol);
    await page.click('.timebar label:has(#time-self)');
    const after = await visibleCells(page, ccol);
    check('no-JS: the self switch changes the table', before.some((t, i) => t !== after[i]));
    const selfBars = await page.locator('#chart-duration .fallback.s .fb-row:visible').count();
    check('no-JS: the self switch shows the self-time bars', selfBars > 0, `bars=${selfBars}`);
    await page.click('.timebar label:has(#time-incl)');
    if (args['nojs-screenshot']) {
      mkdirSync(dirname(resolve(args['nojs-screenshot'])), { recursive: true });
      await page.screenshot({ path: args['nojs-screenshot'], fullPage: true });
      check(`no-JS screenshot saved to ${args['nojs-screenshot']}`, existsSync(args['nojs-screenshot']));
    }
    const treeStatic = await page.locator('table.tree-static tbody tr:visible').count();
    check('no-JS: the static call tree shows its top levels', treeStatic > 0, `rows=${treeStatic}`);
    check('no-JS: no flame graph', !(await page.locator('#flame').isVisible()));
    check('no-JS: no request', log.requests.length === 0, log.requests.join(' '));
    await ctx.close();
  });

  // --- HTA-compatible report: totals only, nothing per step
  if (args['compat-report']) {
    await step('--hta-compat report', async () => {
      const ctx = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
      const { page, log } = await open(ctx, args['compat-report']);
      await page.waitForFunction(() => document.querySelectorAll('figure.chart.drawn').length >= 2, null, { timeout: 10000 }).catch(() => {});
      const headers = await page.$$eval('#diff-table thead th', (ths) => ths.map((th) => th.textContent.trim()));
      check('compat: HTA columns (totals)', headers.includes('Δ duration') && headers.includes('Δ count') && !headers.some((h) => h.includes('/ step')),
        JSON.stringify(headers));
      const absent = await page.evaluate(() => ['#steps', '#launchers', '.findings', '.timebar', 'input[name="verdict"]']
        .filter((s) => document.querySelector(s)));
      check('compat: no per-step sections', absent.length === 0, absent.join(' '));
      check('compat: charts drawn', (await page.locator('figure.chart.drawn').count()) === 2);
      check('compat: no console errors', log.errors.length === 0, log.errors.slice(0, 3).join(' | '));
      await ctx.close();
    });
  }
  // --- Long templated names, sides on different GPUs
  if (args['names-report']) {
    await step('long names and differing sides', async () => {
      const ctx = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
      const { page, log } = await open(ctx, args['names-report']);
      await page.waitForFunction(() => document.querySelectorAll('figure.chart.drawn').length >= 2, null, { timeout: 10000 }).catch(() => {});
      const banner = await page.evaluate(() => {
        const b = document.querySelector('#summary .banner');
        const cards = document.querySelector('#summary .cards');
        return b && cards && (b.compareDocumentPosition(cards) & Node.DOCUMENT_POSITION_FOLLOWING) ? b.innerText : '';
      });
      check('names: "the sides differ" before the headline', banner.includes('The sides differ') && banner.includes('Tesla V100'), banner);
      const rows = await page.$$eval('#diff-table tbody tr td.nm', (tds) => tds
        .filter((td) => (td.getAttribute('title') || '').length > 1000)
        .map((td) => td.firstChild.textContent));
      check('names: the long kernels are in the table', rows.length >= 5, `${rows.length}`);
      check('names: their labels differ', new Set(rows).size === rows.length, rows.join(' | '));
      check('names: labels are short', rows.every((l) => Array.from(l).length <= 120), rows[0]);
      const charts = await page.evaluate(() => JSON.parse(document.getElementById('data').textContent).charts
        .map((c) => c.rows.map((r) => r.label)));
      check('names: chart labels differ within each chart', charts.every((ls) => new Set(ls).size === ls.length), JSON.stringify(charts));
      const tip = await page.evaluate(() => {
        const canvas = document.querySelector('#chart-duration canvas');
        const chart = canvas && Chart.getChart(canvas);
        if (!chart) return null;
        const data = JSON.parse(document.getElementById('data').textContent).charts.find((c) => c.id === 'duration');
        const i = data.rows.findIndex((r) => r.name.length > 1000);
        if (i < 0) return [];
        return chart.options.plugins.tooltip.callbacks.title([{ dataIndex: i }]);
      });
      check('names: a long name\'s tooltip is wrapped', Array.isArray(tip) && tip.length > 5 && tip.every((l) => Array.from(l).length <= 80),
        JSON.stringify(tip && tip.slice(0, 2)));
      check('names: no console errors', log.errors.length === 0, log.errors.slice(0, 3).join(' | '));
      await ctx.close();
    });
  }

  // --- A comparison far bigger than the page: bounded, said, and usable (its speed: bench.sh set h)
  if (args['loader-report']) {
    await step('flame graph: work that left, nothing testable', async () => {
      const loader = 'enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__';
      const rgbOf = (s) => s.match(/\d+/g).map(Number);
      const looks = {};
      for (const scheme of ['light', 'dark']) {
        const ctx = await browser.newContext({ viewport: { width: 1400, height: 1000 }, colorScheme: scheme });
        const { page: p, log: l } = await open(ctx, args['loader-report']);
        await p.waitForFunction(() => window.__flame && window.__flame.nodes > 0);
        const boxes = await p.evaluate(() => window.__flame.layout());
        const width = await p.$eval('#flame-canvas', (c) => c.getBoundingClientRect().width);
        const gone = boxes.find((b) => b.name === loader && !b.above);
        const top = boxes.filter((b) => b.y === 0);
        looks[scheme] = gone ? gone.fill : '';
        if (scheme === 'light') {
          check('loader: default width is the larger side', await p.$eval('input[name="flame-width"]:checked', (i) => i.value) === 'larger');
          check('loader: the work gone on test has width by default', gone && gone.w > 0.5 * width, JSON.stringify(gone));
          check('loader: it is the first top-level frame (widest first)', gone && gone.x === 0 && gone.y === 0);
          const widths = top.map((b) => b.w);
          check('loader: top-level frames widest first', widths.every((w, k) => k === 0 || w <= widths[k - 1] + 0.01), widths.slice(0, 6).join(', '));
          const c = gone ? rgbOf(gone.fill) : [0, 0, 0];
          check('loader: coloured by its change (blue: gone, less time) though not testable', c[2] > c[0] + 60, gone && gone.fill);
          check('loader: not testable, drawn hatched', gone && gone.hatched === true);
          check('loader: top-level frames are not all one grey', new Set(top.map((b) => b.fill)).size > 1, top.map((b) => b.fill).join(' '));
          const legend = await p.$eval('.flame-legend', (n) => n.textContent);
          check('loader: the legend names the hatching', /not testable/.test(legend) && /hatched/.test(legend), legend);
          const buttons = await p.$$eval('.flame-switch input[name="flame-width"] + span', (s) => s.map((x) => x.textContent));
          check('loader: width buttons carry the sides\' labels, as text', JSON.stringify(buttons) === JSON.stringify(['larger side', '<b>main</b>', 'workers']) &&
            (await p.$$eval('.flame-switch b, #flame b', (b) => b.length)) === 0, JSON.stringify(buttons));
          await p.click('.flame-switch label:has(input[value="test"])');
          const onTest = (await p.evaluate(() => window.__flame.layout())).find((b) => b.name === loader && !b.above);
          check('loader: on the test side alone it has no width', !onTest || onTest.w < 1, JSON.stringify(onTest));
          await p.screenshot({ path: args.screenshot.replace(/\.png$/, '-loader.png'), clip: await p.$eval('#tree', (t) => { t.scrollIntoView(); const r = t.getBoundingClientRect(); return { x: r.x, y: r.y + window.scrollY, width: r.width, height: Math.min(r.height, 700) }; }), fullPage: true });
        } else {
          const c = rgbOf(looks.dark || '0,0,0');
          check('dark: the flame graph has its own colours', looks.dark !== looks.light && 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2] < 170, `${looks.light} / ${looks.dark}`);
          await p.$eval('#tree', (t) => t.scrollIntoView());
          await p.screenshot({ path: args.screenshot.replace(/\.png$/, '-loader-dark.png') });
        }
        check(`loader (${scheme}): no script errors`, l.errors.length === 0, l.errors.join('; '));
        await ctx.close();
      }
    });
  }

  if (args['memory-report']) {
    await step('flame graph: memory width', async () => {
      const ctx = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
      const { page: p, log: l } = await open(ctx, args['memory-report']);
      await p.waitForFunction(() => window.__flame && window.__flame.nodes > 0);
      const options = await p.$$eval('input[name="flame-metric"]', (i) => i.map((x) => x.value));
      check('memory: the flame graph offers a memory width', JSON.stringify(options) === JSON.stringify(['host', 'gpu', 'memory']), JSON.stringify(options));
      await p.click('.flame-switch label:has(input[value="memory"])');
      const boxes = await p.evaluate(() => window.__flame.layout());
      const width = await p.$eval('#flame-canvas', (c) => c.getBoundingClientRect().width);
      const addmm = boxes.filter((b) => b.name === 'aten::addmm' && !b.above);
      check('memory: aten::addmm has width', addmm.length > 0 && addmm.some((b) => b.w > 1), JSON.stringify(addmm.slice(0, 2)));
      const c = addmm.length ? addmm[0].fill.match(/\d+/g).map(Number) : [0, 0, 0];
      check('memory: aten::addmm coloured as more bytes (red)', c[0] > c[2] + 60, addmm.length ? addmm[0].fill : '');
      // Widths are bytes: the frames around aten::addmm take nearly all the width (the
      // peak dwarfs every other allocation); no GPU frame has any.
      const kids = boxes.filter((b) => b.y === addmm[0]?.y);
      const share = addmm.reduce((s, b) => s + b.w, 0) / Math.max(1, kids.reduce((s, b) => s + b.w, 0));
      check('memory: aten::addmm holds most of its row\'s width', share > 0.9, String(share));
      const gpuFrames = await p.evaluate(() => window.__flame.layout().filter((b) => /sgemm|Memset/.test(b.name) && b.w > 0).length);
      check('memory: GPU frames have no width', gpuFrames === 0, String(gpuFrames));
      check('memory: no script errors', l.errors.length === 0, l.errors.join('; '));
      await ctx.close();
    });
  }

  if (args['big-report']) {
    await step('big report', async () => {
      const bytes = statSync(args['big-report']).size;
      check(`big: report under 10 MB (${(bytes / 1e6).toFixed(2)} MB)`, bytes < 10_000_000, `${bytes} bytes`);
      const ctx = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
      const page = await ctx.newPage();
      page.setDefaultTimeout(60000);
      const errors = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
      // Interactive: charts drawn and the table's controls live, the table laid out where it
      // scrolls into view, and a click on a column sorted it (times printed: bench.sh set h).
      const { shown, rendered, sorted, column: dcol } = await bigInteractive(page, args['big-report']);
      console.log(`big: page shown after ${shown} ms, table rendered after ${rendered} ms, sorted after ${sorted} ms ` +
        '(not a check: bench.sh set h)');
      const keys = await columnKeys(page, dcol);
      check('big: the sort sorted', !isSorted(keys, -1), isSorted(keys, -1));
      // The notice: how many rows were left out, and where they are.
      const rows = await page.$$eval('#diff-table tbody tr', (t) => t.length);
      const notice = await page.$eval('#rows-left-out', (p) => p.innerText).catch(() => '');
      const total = await page.$eval('#h-diff', (h) => h.innerText);
      const m = notice.match(/^([\d,]+) rows left out/);
      const all = total.match(/of ([\d,]+) rows/);
      const num = (s) => Number(s.replace(/,/g, ''));
      check('big: the table holds at most 2,000 rows', rows > 0 && rows <= 2000, `rows=${rows}`);
      check('big: "N rows left out" notice, N = all rows − rows shown',
        m && all && num(m[1]) === num(all[1]) - rows && num(all[1]) >= 100000, `${notice} | ${total}`);
      check('big: the notice points to the CSV and JSON outputs', /--csv FILE/.test(notice) && /--json FILE/.test(notice), notice);
      const status = await page.$eval('#shown', (s) => s.textContent);
      check('big: the filter counts the rows shown', status === `Showing ${rows.toLocaleString('en-US')} of ${rows.toLocaleString('en-US')} rows`, status);
      // Every link of the findings lands on a row of the page.
      const dangling = await page.$$eval('a[href^="#r"]', (as) => as.filter((a) => !document.getElementById(a.getAttribute('href').slice(1))).length);
      check('big: every link to a row finds it', dangling === 0, `dangling=${dangling}`);
      const groupsMore = await page.$$eval('details.group p.more', (ps) => ps.length);
      check('big: the change groups say what they leave out', groupsMore > 0, `groups with a "more" line: ${groupsMore}`);
      check('big: no console errors', errors.length === 0, errors.slice(0, 3).join(' | '));
      await ctx.close();
    });
  }
  if (args['trend-report']) {
    // `tracediff trend` over a long series: a static page (no script), under 5 MB, laid out
    // and scrolled to its changes (the time printed: bench.sh set h); one SVG line per
    // headline figure with a point per run, the change marked; a hostile run label as text.
    await step('trend report', async () => {
      const file = args['trend-report'];
      const runs = Number(args['trend-runs'] || 0);
      const bytes = statSync(file).size;
      check(`trend: page under 5 MB (${(bytes / 1e6).toFixed(2)} MB)`, bytes < 5_000_000, `${bytes} bytes`);
      const ctx = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
      const { page, log } = await open(ctx, file);  // its log kept; timed on a second load
      const ms = await trendInteractive(page, file);
      console.log(`trend: ${runs} runs, page ${bytes} bytes, loaded and scrolled after ${ms} ms (not a check: bench.sh set h)`);
      const charts = await page.$$eval('.charts figure svg polyline.line', (ls) =>
        ls.map((l) => l.getAttribute('points').trim().split(/\s+/).length));
      check('trend: a chart per headline figure, a point per run', charts.length >= 3 && charts.every((n) => n === runs),
        JSON.stringify(charts.slice(0, 5)));
      const marks = await page.$$eval('.charts line.cp', (ls) => ls.length);
      check('trend: the change point marked', marks >= 1, `marks=${marks}`);
      const box = await page.locator('.charts figure svg').first().boundingBox();
      check('trend: the chart is drawn with a size', box && box.width > 200 && box.height > 100, JSON.stringify(box));
      const commands = await page.$$eval('#changes + table tbody tr td:last-child code', (cs) => cs.map((c) => c.textContent));
      check('trend: each change with its pairwise command', commands.length >= 1 && commands.every((c) => c.startsWith('tracediff ')),
        commands.slice(0, 2).join(' | '));
      const sparks = await page.$$eval('td.spark svg polyline', (ls) => ls.length);
      check('trend: rows with sparklines', sparks >= 1, `sparklines=${sparks}`);
      if (args['trend-label']) {
        const text = await page.evaluate(() => document.body.innerText);
        check('trend: a hostile run label shown as text', text.includes(args['trend-label']));
        const injected = await page.$$eval('img, script', (e) => e.length);
        check('trend: nothing injected (no img, no script)', injected === 0, `elements=${injected}`);
      }
      check('trend: no network, dialogs or console errors',
        log.requests.length === 0 && log.dialogs.length === 0 && log.errors.length === 0,
        [...log.requests, ...log.dialogs, ...log.errors].slice(0, 3).join(' | '));
      await ctx.close();
    });
  }

  // --embed-perfetto (P.html): no request before the click; the click opens the button's
  // target (rewritten here to a local stand-in for ui.perfetto.dev) and hands it the
  // embedded step by Perfetto's handshake: 'PING' until 'PONG', then {perfetto: {buffer}}.
  if (args['perfetto-report']) {
    await step('open in Perfetto', async () => {
      const standIn = `<!doctype html><title>stand-in</title><script>
        window.__got = [];
        addEventListener('message', (e) => {
          const d = e.data;
          window.__got.push(typeof d === 'string' ? d : { title: d.perfetto.title, text: new TextDecoder().decode(d.perfetto.buffer) });
          if (d === 'PING' && window.__got.filter((x) => x === 'PING').length === 2) e.source.postMessage('PONG', '*');
        });</script>`;
      const server = createServer((req, res) => { res.writeHead(200, { 'content-type': 'text/html' }); res.end(standIn); });
      await new Promise((r) => server.listen(0, '127.0.0.1', r));
      try {
        const ctx = await browser.newContext({ viewport: { width: 1200, height: 900 } });
        const { page, log } = await open(ctx, args['perfetto-report']);
        const button = page.locator('#open-perfetto');
        check('perfetto: the button is shown', await button.isVisible());
        check('perfetto: its target is ui.perfetto.dev', (await button.getAttribute('data-target')).startsWith('https://ui.perfetto.dev/'));
        await page.waitForTimeout(300);
        check('perfetto: no request before the click', log.requests.length === 0, log.requests.slice(0, 3).join(' '));
        const target = `http://127.0.0.1:${server.address().port}/stand-in.html`;
        await page.evaluate((t) => document.getElementById('open-perfetto').setAttribute('data-target', t), target);
        const [popup] = await Promise.all([ctx.waitForEvent('page'), button.click()]);
        await popup.waitForFunction(() => window.__got && window.__got.some((x) => typeof x === 'object'), null, { timeout: 10000 });
        const got = await popup.evaluate(() => window.__got);
        const embedded = await page.$eval('#perfetto-data', (e) => e.textContent);
        check('perfetto: PING first, then the buffer after PONG', got[0] === 'PING' && typeof got[got.length - 1] === 'object', JSON.stringify(got.map((x) => typeof x)));
        const sent = got.find((x) => typeof x === 'object');
        check('perfetto: the buffer is the embedded step file', sent.text === embedded && JSON.parse(sent.text).traceEvents.length > 0);
        check('perfetto: titled with the sides', /vs/.test(sent.title), sent.title);
        check('perfetto: no script errors', log.errors.length === 0, log.errors.join('; '));
        await ctx.close();
      } finally {
        server.close();
      }
    });
  }
} finally {
  await browser.close();
}

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
