// Checks a tracediff HTML report in headless Chromium, as a reader would use it.
//
//   node report_test.mjs --report R.html --malicious-report M.html --screenshot OUT.png
//                        [--chromium /usr/bin/chromium] [--hostile-name NAME]
//
// R.html: any report with rows. M.html: a report with a row named
// `</script><img src=x onerror=alert(1)>` (the default --hostile-name).
// Prints one line per check and ends with "N passed, M failed"; exits 1 on failure.
import { chromium } from 'playwright-core';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    report: { type: 'string' },
    'malicious-report': { type: 'string' },
    screenshot: { type: 'string' },
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
  const url = pathToFileURL(resolve(file)).href;
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
        if (type === 'text') return (col === 0 ? td.getAttribute('title') || td.textContent : td.textContent).toLowerCase();
        const v = td.getAttribute('data-v');
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
    check('two chart figures', charts.length === 2, `found ${charts.length}`);
    for (const c of charts) {
      check(`${c.id}: canvas has drawn pixels`, c.drawn && c.pixels > 0.01 * c.area, `drawn=${c.drawn} pixels=${c.pixels}/${c.area}`);
      check(`${c.id}: static fallback hidden once drawn`, c.fallbackHidden);
    }
  });

  await step('screenshot', async () => {
    mkdirSync(dirname(resolve(args.screenshot)), { recursive: true });
    await page.screenshot({ path: args.screenshot, fullPage: true });
    check(`screenshot saved to ${args.screenshot}`, existsSync(args.screenshot));
  });

  const total = await page.$$eval('#diff-table tbody tr', (t) => t.length);
  check('table has rows', total > 0, `rows=${total}`);

  await step('sorting', async () => {
    const headers = await page.$$eval('#diff-table thead th', (ths) => ths.map((th) => [th.textContent.trim(), th.dataset.type]));
    const wanted = ['Name', ' count', ' total', 'Δ duration', 'Δ %', 'Change'];
    const cols = [];
    for (const w of wanted) {
      const i = headers.findIndex(([t]) => (w.startsWith(' ') ? t.endsWith(w) : t === w));
      if (i >= 0 && !cols.includes(i)) cols.push(i);
    }
    check('sortable columns found', cols.length === wanted.length, JSON.stringify(headers));
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
    const dcol = headers.findIndex(([t]) => t === 'Δ duration');
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

  await step('filtering', async () => {
    const rowText = (trs) =>
      trs.map((tr) => {
        const nm = tr.cells[0];
        return [nm.getAttribute('title') || nm.textContent, nm.textContent, tr.cells[1].textContent].join('\n').toLowerCase();
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

    for (const [name, attr] of [['change', 'data-change'], ['device', 'data-device']]) {
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

  check('no console errors', log.errors.length === 0, log.errors.slice(0, 3).join(' | '));
  check('no request but the file itself', log.requests.length === 0, log.requests.slice(0, 3).join(' '));
  check('no dialog', log.dialogs.length === 0, log.dialogs.join(' | '));
  await context.close();

  // --- the hostile name
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
        cell: cells.some((td) => td.textContent === hostile || td.getAttribute('title') === hostile),
        group: [...document.querySelectorAll('ol.names li')].some((li) => li.textContent === hostile),
        images: document.images.length,
        pwned: window.__pwned,
        data: JSON.parse(document.getElementById('data').textContent).charts.some((c) =>
          c.rows.some((r) => r.name === hostile)),
      };
    }, hostile);
    check('hostile name shown as text in the table', found.cell);
    check('hostile name shown as text in the groups', found.group);
    check('hostile name in the chart data, intact', found.data);
    check('hostile name made no element', found.images === 0, `images=${found.images}`);
    check('hostile name ran nothing', !found.pwned && log.dialogs.length === 0, log.dialogs.join(' | '));
    await page.fill('#filter', hostile.slice(0, 12));
    const hits = await page.$$eval('#diff-table tbody tr:not([hidden])', (t) => t.length);
    check('hostile name can be filtered for', hits >= 1, `hits=${hits}`);
    check('no console errors (hostile report)', log.errors.length === 0, log.errors.slice(0, 3).join(' | '));
    check('no request (hostile report)', log.requests.length === 0, log.requests.slice(0, 3).join(' '));
    await ctx.close();
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
    check('no-JS: no request', log.requests.length === 0, log.requests.join(' '));
    await ctx.close();
  });
} finally {
  await browser.close();
}

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
