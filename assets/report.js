/* tracediff report script: draws the charts, makes the table sortable and
 * filterable, and switches inclusive <-> self time. Untrusted text (operator names)
 * only ever goes through textContent, element attributes read back as text, and
 * Chart.js (which paints on a canvas). Never innerHTML. Without this script the page
 * still shows everything (and the inclusive/self switch still works through CSS). */
(function () {
  'use strict';

  var data;
  try {
    data = JSON.parse(document.getElementById('data').textContent);
  } catch (e) {
    data = { labels: ['Control', 'Test'], charts: [] };
  }
  var root = document.documentElement;

  // --- inclusive or self time
  var selfBox = document.getElementById('time-self');
  function selfMode() { return !!(selfBox && selfBox.checked); }
  var onTimeChange = [];
  var onFilter = [];  // the table's filters changed: the charts follow
  var onSort = [];
  if (selfBox) {
    document.querySelectorAll('input[name="time"]').forEach(function (box) {
      box.addEventListener('change', function () {
        root.classList.toggle('self', selfMode());
        onTimeChange.forEach(function (f) { f(); });
      });
    });
    root.classList.toggle('self', selfMode());  // a reload may keep the choice
  }

  // --- number formatting (ticks only; every other number was formatted by tracediff)
  function sig3(v) {
    var a = Math.abs(v);
    var d = a >= 100 ? 0 : a >= 10 ? 1 : 2;
    var s = a.toFixed(d);
    if (d > 0) s = s.replace(/\.?0+$/, '');
    return (v < 0 ? '-' : '') + s;
  }
  function durationUnit(maxNs) {
    if (maxNs >= 1e9) return [1e9, 's'];
    if (maxNs >= 1e6) return [1e6, 'ms'];
    if (maxNs >= 1e3) return [1e3, '\u00b5s'];
    return [1, 'ns'];
  }
  function countTick(v) {
    if (data.per_step) return Math.abs(v) < 1e-9 ? '0' : sig3(v);
    return Number.isInteger(v) ? v.toLocaleString('en-US') : '';
  }

  // Chart labels have less room than table cells: keep the head and the tail.
  // A long name as tooltip lines of at most 80 characters, cut after a comma or a
  // space where one is near (a 1,700-character kernel name must not run off the page).
  function wrapName(s) {
    var cps = Array.from(s), lines = [];
    while (cps.length > 80) {
      var cut = 80;
      for (var i = 80; i > 50; --i) {
        if (cps[i - 1] === ',' || cps[i - 1] === ' ') { cut = i; break; }
      }
      lines.push(cps.slice(0, cut).join(''));
      cps = cps.slice(cut);
    }
    lines.push(cps.join(''));
    return lines;
  }

  // --- charts
  var COLORS = { c: '#4e79a7', t: '#e8772e', d: '#7a6bb0', slower: '#b42318', faster: '#067647', same: '#a3abb8',
                 untestable: '#d0d5dd', fg: '#1d2433', grid: '#e6e9ee' };
  // The chart colours come from the stylesheet's variables, so that they follow the
  // light or dark theme (read again when the theme changes).
  var CSS_VARS = { c: '--control', t: '--test', d: '--diff', slower: '--worse', faster: '--better', same: '--same',
                   untestable: '--faint', fg: '--fg', grid: '--grid' };
  function readColors() {
    var style = getComputedStyle(root);
    Object.keys(CSS_VARS).forEach(function (k) {
      var v = style.getPropertyValue(CSS_VARS[k]).trim();
      if (v) COLORS[k] = v;
    });
  }
  var VERDICT_WORDS = { same: 'same within noise', untestable: 'not testable' };
  var charts = {};

  // The table's side of the charts (set by initTable): which rows the filters show.
  var tableApi = null;

  // A chart's rows: those analysis chose, or, while the table is filtered, the visible rows
  // that changed most (the time chart: built from the table's cells), else the chosen rows
  // that are still visible.
  function chartRows(spec) {
    var rows = spec.self && selfMode() ? spec.self : spec.rows;
    if (!tableApi || !tableApi.filtered()) return rows;
    if (spec.id === 'duration' && data.per_step) return tableApi.topRows(Math.max(rows.length, 10));
    return rows.filter(function (r) { return tableApi.visible(r.name); });
  }

  function drawChart(spec) {
    var fig = document.getElementById('chart-' + spec.id);
    var rows = chartRows(spec);
    var canvasWrap = fig && fig.querySelector('.canvas-wrap');
    if (fig && (!rows || !rows.length) && charts[spec.id]) {
      charts[spec.id].destroy();  // nothing visible: an empty chart, not the last one
      delete charts[spec.id];
      if (canvasWrap) canvasWrap.style.height = '80px';
      fig.setAttribute('data-rows', '0');
      return;
    }
    if (!fig || !rows || !rows.length) return;
    var wrap = fig.querySelector('.canvas-wrap');
    var canvas = wrap && wrap.querySelector('canvas');
    if (!canvas) return;
    if (charts[spec.id]) {
      charts[spec.id].destroy();
      delete charts[spec.id];
    }
    var isDuration = spec.unit === 'ns';
    var max = 0;
    rows.forEach(function (r) {
      max = Math.max(max, Math.abs(r.c), Math.abs(r.t), Math.abs(r.d));
    });
    var unit = durationUnit(max);
    var texts = ['ct', 'tt', 'dt'];
    var byVerdict = rows.some(function (r) { return r.v; });
    var per = data.per_step ? ' per ' + (data.unit || 'step') : '';
    var axis = spec.axis ? spec.axis + ' (' + unit[1] + ')'
             : isDuration ? (data.per_step ? (spec.self && selfMode() ? 'self time' : 'inclusive time') + per
                                           : 'total duration') + ' (' + unit[1] + ')'
                          : (data.per_step ? 'calls' + per : 'count');
    wrap.style.height = (80 + 36 * rows.length) + 'px';
    wrap.hidden = false;
    try {
      charts[spec.id] = new Chart(canvas, {
        type: 'bar',
        data: {
          labels: rows.map(function (r) { return r.label; }),
          datasets: [
            { label: data.labels[0], data: rows.map(function (r) { return r.c; }), backgroundColor: COLORS.c },
            { label: data.labels[1], data: rows.map(function (r) { return r.t; }), backgroundColor: COLORS.t },
            {
              label: byVerdict ? 'Difference (colour: verdict)' : 'Difference',
              data: rows.map(function (r) { return r.d; }),
              backgroundColor: byVerdict ? rows.map(function (r) { return COLORS[r.v] || COLORS.d; }) : COLORS.d
            }
          ]
        },
        options: {
          indexAxis: 'y',
          responsive: true,
          maintainAspectRatio: false,
          animation: false,
          barPercentage: 0.9,
          categoryPercentage: 0.8,
          interaction: { mode: 'index', axis: 'y', intersect: false },
          // A click on a bar: to its row in the table, highlighted.
          onClick: function (ev, items) {
            if (tableApi && items && items.length) tableApi.reveal(rows[items[0].index].name);
          },
          plugins: {
            legend: {
              position: 'top',
              align: 'start',
              labels: {
                boxWidth: 12,
                boxHeight: 12,
                generateLabels: function (chart) {
                  var items = Chart.defaults.plugins.legend.labels.generateLabels(chart);
                  // One swatch per dataset, even when the bars are coloured one by one.
                  items.forEach(function (it, i) {
                    it.fillStyle = i === 2 && byVerdict ? COLORS.slower : [COLORS.c, COLORS.t, COLORS.d][i];
                    it.strokeStyle = it.fillStyle;
                  });
                  return items;
                }
              }
            },
            tooltip: {
              callbacks: {
                title: function (items) { return items.length ? wrapName(rows[items[0].dataIndex].name) : ''; },
                label: function (item) {
                  var r = rows[item.dataIndex];
                  var s = item.dataset.label.replace(/ \(colour: verdict\)$/, '') + ': ' + r[texts[item.datasetIndex]];
                  if (item.datasetIndex === 2 && r.v) s += ' (' + (VERDICT_WORDS[r.v] || r.v) + ')';
                  return s;
                }
              }
            }
          },
          scales: {
            x: {
              grid: { color: COLORS.grid },
              title: { display: true, text: axis },
              ticks: {
                maxRotation: 0,
                autoSkipPadding: 14,
                callback: function (v) { return isDuration ? sig3(v / unit[0]) : countTick(v); }
              }
            },
            y: {
              grid: { display: false },
              ticks: { font: { family: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace', size: 11 } }
            }
          }
        }
      });
      fig.classList.add('drawn');
      fig.setAttribute('data-rows', String(rows.length));
      fig.setAttribute('data-drawn', spec.self && selfMode() ? 'self' : 'incl');
    } catch (e) {
      wrap.hidden = true;  // keep the static bars
      fig.classList.remove('drawn');
    }
  }

  // Why the step moved: a waterfall from one side's step to the other's, floating bars
  // [from, to] per part (analysis chose them; the static bars stay if this fails).
  var whyChart = null;
  function drawWhy() {
    var el = document.getElementById('why-data');
    var fig = document.getElementById('chart-why');
    if (!el || !fig) return;
    var wrap = fig.querySelector('.canvas-wrap');
    var canvas = wrap && wrap.querySelector('canvas');
    if (!canvas) return;
    var why;
    try { why = JSON.parse(el.textContent); } catch (e) { return; }
    var bars = why.bars || [];
    if (!bars.length) return;
    var max = 0, lo = Infinity, hi = 0;
    bars.forEach(function (b) {
      max = Math.max(max, b.from, b.to);
      // The parts float between the two steps: the axis starts near them, so that a
      // change of a few percent is seen (the axis title says it is cut).
      if (b.cls !== 'step') { lo = Math.min(lo, b.from, b.to); hi = Math.max(hi, b.from, b.to); }
      else { lo = Math.min(lo, b.to); hi = Math.max(hi, b.to); }
    });
    var unit = durationUnit(max);
    var floor = isFinite(lo) ? Math.max(0, lo - 1.5 * Math.max(hi - lo, max * 0.02)) : 0;
    var colour = { step: COLORS.c, worse: COLORS.slower, better: COLORS.faster, same: COLORS.same,
                   untested: COLORS.untestable };
    if (whyChart) { whyChart.destroy(); whyChart = null; }
    wrap.style.height = '260px';
    wrap.hidden = false;
    try {
      whyChart = new Chart(canvas, {
        type: 'bar',
        data: {
          // Each part names what moved it under its label, as the static bars do.
          labels: bars.map(function (b) {
            if (!b.link) return b.label;
            var what = b.link.length > 34 ? b.link.slice(0, 16) + '\u2026' + b.link.slice(-17) : b.link;
            return [b.label, what];
          }),
          datasets: [{
            label: 'per GPU, per ' + (data.unit || 'step'),
            data: bars.map(function (b) { return [Math.min(b.from, b.to) / unit[0], Math.max(b.from, b.to) / unit[0]]; }),
            backgroundColor: bars.map(function (b) { return colour[b.cls] || COLORS.d; })
          }]
        },
        options: {
          responsive: true, maintainAspectRatio: false, animation: false,
          plugins: {
            legend: { display: false },
            tooltip: { callbacks: { label: function (item) {
              var b = bars[item.dataIndex];
              return b.text + (b.link ? ' (' + b.link + ')' : '');
            } } }
          },
          scales: {
            x: { grid: { display: false }, ticks: { maxRotation: 30, autoSkip: false } },
            y: { min: floor / unit[0], grid: { color: COLORS.grid },
                 title: { display: true, text: unit[1] + ' per GPU' + (floor > 0 ? ' (axis from ' + sig3(floor / unit[0]) + ')' : '') },
                 ticks: { callback: function (v) { return sig3(v); } } }
          }
        }
      });
      fig.classList.add('drawn');
      var staticBars = fig.querySelector('.why-bars');
      if (staticBars) staticBars.hidden = true;
    } catch (e) {
      wrap.hidden = true;  // keep the static bars
    }
  }

  function drawCharts() {
    if (typeof Chart === 'undefined') return;
    var font = getComputedStyle(document.body).fontFamily;
    Chart.defaults.font.family = font;
    Chart.defaults.font.size = 12;
    readColors();
    Chart.defaults.color = COLORS.fg;
    drawWhy();
    data.charts.forEach(drawChart);
    onTimeChange.push(function () {
      data.charts.forEach(function (spec) { if (spec.self) drawChart(spec); });
    });
    onFilter.push(function () {
      data.charts.forEach(function (spec) { if (spec.id !== 'families') drawChart(spec); });
    });
    // Light <-> dark while the page is open: recolour the charts.
    var scheme = window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)');
    if (scheme && scheme.addEventListener) {
      scheme.addEventListener('change', function () {
        readColors();
        Chart.defaults.color = COLORS.fg;
        drawWhy();
        data.charts.forEach(drawChart);
      });
    }
  }

  // --- the table
  function nameOf(td) {
    var first = td.firstChild;
    return td.getAttribute('title') || (first && first.nodeType === 3 ? first.nodeValue : '');
  }

  // --- the rows' keys and sparklines, from #row-data (format: src/output/html/table.cpp):
  // the filters' keys and the sort keys go on the rows and cells as the attributes the
  // table reads (data-change, data-device, data-verdict on the row; data-v, data-s on a
  // cell), each sparkline is drawn into the verdict's cell. Numbers only: nothing from a
  // trace is in it.
  // Each sparkline is a copy of the page's <template id="spark"> (an SVG of two polylines,
  // control and test), its points set from the row's heights.
  function sparkline(td, sp, proto) {
    if (!Array.isArray(sp) || !proto) return;
    var svg = proto.cloneNode(true);
    var lines = svg.querySelectorAll('polyline');
    [0, 1].forEach(function (side) {
      var ys = sp[side];
      if (!Array.isArray(ys) || ys.length < 2) {
        svg.removeChild(lines[side]);
        return;
      }
      lines[side].setAttribute('points', ys.map(function (y, i) {
        return Math.round((1 + 70 * i / (ys.length - 1)) * 10) / 10 + ',' + (+y || 0);
      }).join(' '));
    });
    td.appendChild(svg);
  }
  function expandRows(rows) {
    var el = document.getElementById('row-data');
    if (!el) return;  // --hta-compat: the rows carry their keys
    var d;
    try { d = JSON.parse(el.textContent); } catch (e) { return; }
    var keyText = function (k) { return k === null || k === undefined ? '' : String(k); };
    var tpl = document.getElementById('spark');
    var proto = tpl && tpl.content ? tpl.content.firstElementChild : null;
    rows.forEach(function (tr, i) {
      var r = d.rows[i];
      if (!Array.isArray(r) || tr.id !== 'r' + i) return;
      tr.setAttribute('data-change', d.changes[r[0]] || '');
      tr.setAttribute('data-device', d.devices[r[1]] || '');
      tr.setAttribute('data-verdict', d.verdicts[r[2]] || '');
      var cells = tr.cells;
      cells[2].setAttribute('data-v', String(r[2]));
      for (var c = 0; c < 6; ++c) {
        var k = r[5 + c];
        var td = cells[3 + c];
        if (Array.isArray(k)) {
          td.setAttribute('data-v', keyText(k[0]));
          td.setAttribute('data-s', keyText(k[1]));
        } else {
          td.setAttribute('data-v', keyText(k));
        }
      }
      cells[9].setAttribute('data-v', keyText(r[3]));
      cells[10].setAttribute('data-v', String(r[0]));
      if (r.length > 11 && cells[11]) cells[11].setAttribute('data-v', keyText(r[11]));
      sparkline(cells[2], r[4], proto);
    });
  }

  function initTable() {
    var table = document.getElementById('diff-table');
    if (!table) return;
    var tbody = table.tBodies[0];
    var rows = Array.prototype.slice.call(tbody.rows);
    expandRows(rows);
    var ths = Array.prototype.slice.call(table.tHead.rows[0].cells);
    var controls = document.querySelector('.controls');
    var filter = document.getElementById('filter');
    var shown = document.getElementById('shown');
    var sortState = { col: -1, dir: 0 };

    rows.forEach(function (tr, i) {
      var nm = tr.cells[0];
      var lb = nm.querySelector('.lb');
      tr.__order = i;
      tr.__text = (nameOf(nm) + '\n' + (nm.firstChild && nm.firstChild.nodeType === 3 ? nm.firstChild.nodeValue : '') +
                   '\n' + tr.cells[1].textContent + '\n' + (lb ? lb.textContent : '')).toLowerCase();
    });

    // The sort key: self time where the cell has one and self time is shown.
    function key(tr, col, type) {
      var td = tr.cells[col];
      if (type === 'text') return (col === 0 ? nameOf(td) : td.textContent).toLowerCase();
      var v = selfMode() && td.hasAttribute('data-s') ? td.getAttribute('data-s') : td.getAttribute('data-v');
      if (v === null || v === '') return null;
      var n = Number(v);
      return isNaN(n) ? null : n;
    }

    function sortBy(col, dir) {
      var type = ths[col].getAttribute('data-type');
      var keyed = rows.map(function (tr) { return { tr: tr, k: key(tr, col, type) }; });
      keyed.sort(function (a, b) {
        if (a.k === null || b.k === null) {
          if (a.k !== b.k) return a.k === null ? 1 : -1;  // missing values last, both ways
        } else if (a.k < b.k) {
          return -dir;
        } else if (a.k > b.k) {
          return dir;
        }
        return a.tr.__order - b.tr.__order;
      });
      render(keyed.map(function (x) { return x.tr; }));
      ths.forEach(function (th, i) {
        if (i === col) th.setAttribute('aria-sort', dir > 0 ? 'ascending' : 'descending');
        else th.removeAttribute('aria-sort');
      });
      sortState = { col: col, dir: dir };
      onSort.forEach(function (f) { f(); });
    }

    function render(order) {
      var frag = document.createDocumentFragment();
      order.forEach(function (tr) { frag.appendChild(tr); });
      tbody.appendChild(frag);
    }

    ths.forEach(function (th, col) {
      var button = document.createElement('button');
      button.type = 'button';
      while (th.firstChild) button.appendChild(th.firstChild);
      th.appendChild(button);
      th.classList.add('sortable');
      button.addEventListener('click', function () {
        var type = th.getAttribute('data-type');
        var first = type === 'num' ? -1 : 1;  // numbers: largest first; text: A to Z
        var dir = sortState.col === col ? -sortState.dir : first;
        sortBy(col, dir);
      });
    });

    document.getElementById('reset-order').addEventListener('click', function () {
      render(rows.slice().sort(function (a, b) { return a.__order - b.__order; }));
      ths.forEach(function (th) { th.removeAttribute('aria-sort'); });
      sortState = { col: -1, dir: 0 };
      onSort.forEach(function (f) { f(); });
    });

    // Inclusive <-> self: the cells switch by CSS; the order follows the shown values.
    onTimeChange.push(function () {
      if (sortState.col >= 0) sortBy(sortState.col, sortState.dir);
    });

    function checked(name) {
      var on = {};
      document.querySelectorAll('input[name="' + name + '"]').forEach(function (box) {
        on[box.value] = box.checked;
      });
      return on;
    }

    // A /regex/ term as a Thompson NFA, linear in the text whatever the pattern (a link's
    // hash may hold /^(a+)+$/): characters, . [] and \ escapes (each a RegExp of one
    // character), ^ $, groups, | * + ?; null for anything else ({n}, backreferences).
    function nfa(p) {
      var i = 0, G = 0, m;
      function S() { return { e: [] }; }  // a state: t, a test of one character, to n; else epsilons e
      function F(s, f) { return { s: s, f: f }; }
      function alt() {
        var a = seq(), b, s, f;
        while (p[i] === '|') {
          ++i; b = seq(); s = S(); f = S();
          s.e.push(a.s, b.s); a.f.e.push(f); b.f.e.push(f);
          a = F(s, f);
        }
        return a;
      }
      function seq() {
        for (var s = S(), f = s, a, q, n, e; i < p.length && p[i] !== '|' && p[i] !== ')'; f = a.f) {
          a = atom(); q = p[i];
          if ('*+?'.indexOf(q) >= 0) {
            if (p[++i] === '?') ++i;  // lazy: the same rows match
            n = S(); e = S(); n.e.push(a.s); a.f.e.push(e);
            if (q !== '+') n.e.push(e);
            if (q !== '?') a.f.e.push(a.s);
            a = F(n, e);
          }
          f.e.push(a.s);
        }
        return F(s, f);
      }
      function atom() {
        var c = p[i], j = i + 1, s = S(), r;
        if (c === '(') {
          if (p[j] === '?') { if (p[j + 1] !== ':') throw 0; i += 2; }
          ++i;
          s = alt();
          if (p[i++] !== ')') throw 0;
          return s;
        }
        if (c === '^' || c === '$') { ++i; s.a = c; return F(s, s); }
        if (c === '\\') { if (/[bk1-9]/.test(p[j])) throw 0; ++j; }
        if (c === '[') {
          if (p[j] === '^') ++j;
          while (p[j] !== ']') { if (!p[j]) throw 0; j += p[j] === '\\' ? 2 : 1; }
          ++j;
        }
        if ('*+?{}'.indexOf(c) >= 0) throw 0;
        r = new RegExp(p.slice(i, i = j));
        s.t = function (x) { return r.test(x); };
        return F(s, s.n = S());
      }
      try { m = p.length < 500 && alt(); } catch (e) { m = 0; }
      return m && i === p.length ? function (x) {
        var found = false, cur = [], next, at = 0;
        function add(list, q) {
          if (found || q.g === G) return;
          q.g = G;
          if (q.a && (q.a === '^' ? at && x[at - 1] !== '\n' : at < x.length && x[at] !== '\n')) return;
          if (q === m.f) found = true;
          else if (q.t) list.push(q);
          else q.e.forEach(function (r) { add(list, r); });
        }
        for (++G, add(cur, m.s); !found && at < x.length; cur = next) {
          var ch = x[at++];
          next = []; ++G;
          cur.forEach(function (q) { if (q.t(ch)) add(next, q.n); });
          add(next, m.s);
        }
        return found;
      } : null;
    }

    // The filter's terms, all of which a row must match: `word` (a substring), `-word`
    // (excluded), `/regex/` (case-insensitive; one nfa refuses is taken as text).
    function parseQuery(q) {
      return q.trim().toLowerCase().split(/\s+/).filter(Boolean).map(function (t) {
        var neg = t.length > 1 && t.charAt(0) === '-';
        if (neg) t = t.slice(1);
        var re = t.length > 2 && t.charAt(0) === '/' && t.charAt(t.length - 1) === '/' ? nfa(t.slice(1, -1)) : null;
        return { neg: neg, re: re, text: t };
      });
    }
    function matches(terms, text) {
      for (var i = 0; i < terms.length; ++i) {
        var hit = terms[i].re ? terms[i].re(text) : text.indexOf(terms[i].text) !== -1;
        if (hit === terms[i].neg) return false;
      }
      return true;
    }

    var filtered = false;
    function applyFilter() {
      var terms = parseQuery(filter.value);
      var changes = checked('change');
      var devices = checked('device');
      var verdicts = checked('verdict');
      var n = 0;
      rows.forEach(function (tr) {
        var ok = changes[tr.getAttribute('data-change')] !== false &&
                 devices[tr.getAttribute('data-device')] !== false &&
                 verdicts[tr.getAttribute('data-verdict')] !== false &&
                 matches(terms, tr.__text);
        tr.hidden = !ok;
        if (ok) ++n;
      });
      shown.textContent = 'Showing ' + n.toLocaleString('en-US') + ' of ' + rows.length.toLocaleString('en-US') + ' rows';
      var was = filtered;
      filtered = n !== rows.length;
      if (filtered || was) onFilter.forEach(function (f) { f(); });
    }

    // --- the view in the URL's hash: f=filter, s=column.a|d (sort), x=unticked boxes
    // (name:value), t=self; a link opens the same view. Row and section links (#r12,
    // #diff) carry no '=' and are left alone.
    var restoring = false;
    function stateHash() {
      var parts = [];
      if (filter.value.trim()) parts.push('f=' + encodeURIComponent(filter.value.trim()));
      if (sortState.col >= 0) parts.push('s=' + sortState.col + (sortState.dir > 0 ? 'a' : 'd'));
      var off = [];
      controls.querySelectorAll('input[type=checkbox]').forEach(function (box) {
        if (!box.checked) off.push(box.name + ':' + box.value);
      });
      if (off.length) parts.push('x=' + off.map(encodeURIComponent).join(','));
      if (selfMode()) parts.push('t=self');
      return parts.join('&');
    }
    function saveState() {
      if (restoring || !window.history || !history.replaceState) return;
      var h = stateHash();
      var cur = location.hash.slice(1);
      if (!h && cur.indexOf('=') === -1) return;  // keep a row or section link
      history.replaceState(null, '', h ? '#' + h : location.pathname + location.search);
    }
    function restoreState() {
      var h = location.hash.slice(1);
      if (h.indexOf('=') === -1) return false;
      var st = {};
      h.split('&').forEach(function (kv) {
        var i = kv.indexOf('=');
        if (i > 0) st[kv.slice(0, i)] = kv.slice(i + 1);
      });
      restoring = true;
      try {
        try { filter.value = st.f ? decodeURIComponent(st.f) : ''; } catch (e) { filter.value = st.f; }
        var off = {};
        (st.x ? st.x.split(',') : []).forEach(function (v) {
          try { off[decodeURIComponent(v)] = true; } catch (e) { /* ignore a broken one */ }
        });
        controls.querySelectorAll('input[type=checkbox]').forEach(function (box) {
          box.checked = !off[box.name + ':' + box.value];
        });
        var selfWanted = st.t === 'self';
        if (selfBox && selfWanted !== selfMode()) {
          var box = document.getElementById(selfWanted ? 'time-self' : 'time-incl') ||
                    document.querySelector('input[name="time"]:not(#time-self)');
          if (box) {
            box.checked = true;
            box.dispatchEvent(new Event('change', { bubbles: true }));
          }
        }
        applyFilter();
        var m = /^(\d+)([ad])$/.exec(st.s || '');
        if (m && +m[1] < ths.length) sortBy(+m[1], m[2] === 'a' ? 1 : -1);
      } finally {
        restoring = false;
      }
      return true;
    }

    filter.addEventListener('input', function () { applyFilter(); saveState(); });
    controls.addEventListener('change', function () { applyFilter(); saveState(); });
    controls.hidden = false;
    applyFilter();

    var byName = null;
    function rowByName(name) {
      if (!byName) {
        byName = {};
        rows.forEach(function (tr) {
          var k = nameOf(tr.cells[0]);
          if (!(k in byName)) byName[k] = tr;
        });
      }
      return Object.prototype.hasOwnProperty.call(byName, name) ? byName[name] : null;
    }
    var lit = null;
    tableApi = {
      filtered: function () { return filtered; },
      visible: function (name) {
        var tr = rowByName(name);
        return !!tr && !tr.hidden;
      },
      // The visible rows that changed most (largest |Δ|), as chart rows.
      topRows: function (k) {
        var self = selfMode();
        var pick = function (td) {
          var v = self && td.hasAttribute('data-s') ? td.getAttribute('data-s') : td.getAttribute('data-v');
          var n = Number(v);
          return v === null || v === '' || isNaN(n) ? 0 : n;
        };
        var text = function (td) {
          var sp = td.querySelector(self ? '.s' : '.i');
          return (sp || td).textContent.trim();
        };
        var vis = rows.filter(function (tr) { return !tr.hidden && tr.cells.length > 5; });
        vis.sort(function (a, b) { return Math.abs(pick(b.cells[5])) - Math.abs(pick(a.cells[5])) || a.__order - b.__order; });
        return vis.slice(0, k).map(function (tr) {
          var name = nameOf(tr.cells[0]);
          var cps = Array.from(name);
          return {
            name: name,
            label: cps.length > 40 ? cps.slice(0, 39).join('') + '\u2026' : name,
            c: pick(tr.cells[3]), t: pick(tr.cells[4]), d: pick(tr.cells[5]),
            ct: text(tr.cells[3]), tt: text(tr.cells[4]), dt: text(tr.cells[5]),
            v: tr.getAttribute('data-verdict') || undefined
          };
        });
      },
      // To a row (shown even if the filters hide it), highlighted.
      reveal: function (name) {
        var tr = rowByName(name);
        if (!tr) return;
        tr.hidden = false;
        if (lit) lit.classList.remove('lit');
        tr.classList.add('lit');
        lit = tr;
        tr.scrollIntoView({ block: 'center' });
      }
    };
    onSort.push(saveState);
    onTimeChange.push(saveState);
    return restoreState;

    // A link to a row the filters hide: show it anyway.
    window.addEventListener('hashchange', function () {
      var el = document.getElementById(location.hash.slice(1));
      if (el && el.parentNode === tbody && el.hidden) {
        el.hidden = false;
        el.scrollIntoView({ block: 'center' });
      }
    });
  }

  // --- the launcher view: titles for shortened kernel names, open on a link
  function initLaunchers() {
    document.querySelectorAll('details.ln > .k > a[href^="#r"]').forEach(function (a) {
      var tr = document.getElementById(a.getAttribute('href').slice(1));
      var full = tr && tr.cells[0].getAttribute('title');
      if (full) a.setAttribute('title', full);
    });
    function openTarget() {
      var id = location.hash.slice(1);
      var el = id && document.getElementById(id);
      if (el && el.tagName === 'DETAILS' && el.classList.contains('ln')) el.open = true;
    }
    window.addEventListener('hashchange', openTarget);
    // Open at once on a click (hashchange comes later, and not at all for the same hash).
    document.addEventListener('click', function (ev) {
      var a = ev.target && ev.target.closest ? ev.target.closest('a[href^="#l"]') : null;
      var el = a && document.getElementById(a.getAttribute('href').slice(1));
      if (el && el.tagName === 'DETAILS') el.open = true;
    });
    openTarget();
  }

  // --- the sticky header's height, for scroll-margin-top (it wraps on narrow windows)
  function trackHeader() {
    var top = document.querySelector('.top');
    if (!top) return;
    function measure() {
      var sticky = getComputedStyle(top).position === 'sticky';
      root.style.setProperty('--top-h', (sticky ? Math.ceil(top.getBoundingClientRect().height) : 0) + 'px');
    }
    measure();
    if (typeof ResizeObserver !== 'undefined') new ResizeObserver(measure).observe(top);
    window.addEventListener('resize', measure);
  }

  // --- paper: the charts take the printed page's width, and the window's again after
  function trackPrint() {
    function resizeAll() {
      Object.keys(charts).forEach(function (id) {
        try { charts[id].resize(); } catch (e) { /* keep the last drawing */ }
      });
    }
    window.addEventListener('beforeprint', resizeAll);
    window.addEventListener('afterprint', resizeAll);
  }

  root.classList.add('js');
  trackHeader();
  trackPrint();
  var restoreView = initTable();
  initLaunchers();
  drawCharts();
  // A link with a view in its hash (#f=...&s=...): the same view, charts included.
  if (restoreView) {
    restoreView();
    window.addEventListener('hashchange', restoreView);
  }
})();
