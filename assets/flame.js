/* tracediff call tree: the differential flame graph (a top-down icicle on a canvas) and
 * the tree table below it, both drawn from #tree-data (format: src/output/html/tree.cpp).
 * Untrusted text (operator, kernel and frame names) only ever goes through textContent,
 * setAttribute and canvas fillText. Never innerHTML. Without this script the page shows
 * the static table of the top levels (<noscript>). Separate from report.js on purpose:
 * a failure here must not take the rest of the page with it. */
(function () {
  'use strict';

  var holder = document.getElementById('flame');
  var source = document.getElementById('tree-data');
  if (!holder || !source) return;
  var data;
  try {
    data = JSON.parse(source.textContent);
  } catch (e) {
    return;  // the static table stays
  }
  if (!data || !data.nodes || !data.nodes.length) return;

  var ROW = 19;            // px per level
  var MIN_FRAME = 0.4;     // px: narrower frames (and their subtrees) are not drawn
  var MIN_LABEL = 28;      // px: narrower frames get no label
  var FONT = '11.5px system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';
  var WORDS = ['slower', 'faster', 'same within noise', 'not testable'];
  var SYMS = ['\u25B2', '\u25BC', '\u2248', '?'];
  var CLS = ['worse', 'better', 'same', 'untested'];
  var labels = (data.labels || []).map(String);
  if (labels.length !== 2) labels = ['Control', 'Test'];
  var unit = data.unit || 'step';

  // --- the nodes, as columns. The file leaves out what repeats (src/output/html/tree.cpp):
  // each node is widened here to [parent, name, flags, c, t, cs, ts, cg, tg, cn, tn, v, gv,
  // cm, tm (self bytes allocated), then the bytes at or under it, filled in below].
  var raw = data.nodes.map(function (e, i) {
    if (!Array.isArray(e)) e = [];
    var f = e[2] | 0, at = 9;
    var c = e[3], t = e[4];
    var self = f & 4 ? [c, t] : [e[at++], e[at++]];
    var gpu = f & 16 ? [0, 0] : f & 8 ? [c, t] : [e[at++], e[at++]];
    var mem = f & 32 ? [e[at++], e[at++]] : [0, 0];
    var back = e[0];
    return [typeof back === 'number' && back > 0 ? i - back : -1, e[1], f, c, t, self[0], self[1], gpu[0], gpu[1],
            e[5], e[6], e[7], e[8], mem[0], mem[1], 0, 0];
  });
  var hasMemory = data.memory === true;
  var n = raw.length;
  var parent = new Int32Array(n), depth = new Int32Array(n), kids = [], roots = [];
  // A name that is a number is the table's row r<number>: its name as the table shows it
  // (the label, and the full name in its title).
  var names = (data.names || []).map(function (e) {
    if (typeof e !== 'number') return Array.isArray(e) ? e : null;
    var tr = document.getElementById('r' + e);
    var td = tr && tr.cells && tr.cells[0];
    if (!td) return null;
    var first = td.firstChild;
    var lbl = first && first.nodeType === 3 ? first.nodeValue : td.textContent;
    var tip = td.getAttribute('title');
    return tip && tip !== lbl ? [lbl, tip] : [lbl];
  });
  function label(i) { var e = names[raw[i][1]]; return e ? String(e[0]) : ''; }
  function full(i) { var e = names[raw[i][1]]; return e ? String(e.length > 1 ? e[1] : e[0]) : ''; }
  for (var i = 0; i < n; ++i) {
    var p = raw[i][0];
    kids.push([]);
    // Pre-order, parents first: a parent that is not before its child is a broken file.
    if (typeof p !== 'number' || p < 0 || p >= i) {
      parent[i] = -1;
      roots.push(i);
    } else {
      parent[i] = p;
      depth[i] = depth[p] + 1;
      kids[p].push(i);
    }
  }
  function num(i, k) { var v = raw[i][k]; return typeof v === 'number' && isFinite(v) ? v : 0; }
  // Memory's width: the bytes allocated at or under a node (children after parents).
  for (var m = n - 1; m >= 0; --m) {
    raw[m][15] += num(m, 13);
    raw[m][16] += num(m, 14);
    if (parent[m] >= 0) { raw[parent[m]][15] += raw[m][15]; raw[parent[m]][16] += raw[m][16]; }
  }
  function isGpu(i) { return (num(i, 2) & 1) !== 0; }
  function isOther(i) { return (num(i, 2) & 2) !== 0; }
  function verdict(i, gpu) { var v = num(i, gpu ? 12 : 11); return v >= 0 && v <= 3 ? v : 2; }

  // --- what is shown: which side gives the width (0 control, 1 test, 2 the larger of
  // the two, so that work one side no longer does keeps its width), which time, the
  // zoom, the search
  var LARGER = 2;
  var state = { side: LARGER, gpu: false, mem: false, zoom: -1, hover: -1 };
  var match = null;  // Uint8Array when searching
  // A node's value on the width side for the shown metric. In host time a GPU node
  // (GPU time) has no width: host frames are host time, not stretched by the GPU's.
  function value(i) {
    if (!state.gpu && isGpu(i)) return 0;
    var k = state.mem ? 15 : state.gpu ? 7 : 3;
    return state.side === LARGER ? Math.max(num(i, k), num(i, k + 1)) : num(i, k + state.side);
  }

  // --- formatting, as tracediff formats (src/util/format.cpp)
  function group(s) { return s.replace(/\B(?=(\d{3})+(?!\d))/g, ','); }
  function dur(ns, signed) {
    var r = Math.round(ns);
    var a = Math.abs(r);
    var sign = r < 0 ? '-' : (r > 0 && signed ? '+' : '');
    if (a < 1000) return sign + a + ' ns';
    var units = [[1e3, ' \u00b5s'], [1e6, ' ms'], [1e9, ' s']];
    var u = a < 1e6 ? 0 : a < 1e9 ? 1 : 2;
    for (;;) {
      var whole = Math.floor(a / units[u][0]);
      var d = Math.max(0, 3 - String(whole).length);
      var scaled;
      for (;;) {
        scaled = Math.floor((a * Math.pow(10, d) + units[u][0] / 2) / units[u][0]);
        if (d > 0 && scaled >= 1000) { --d; continue; }
        break;
      }
      if (d === 0 && scaled >= 1000 && u < 2) { ++u; continue; }
      var p = Math.pow(10, d);
      var s = group(String(Math.floor(scaled / p)));
      if (d > 0) {
        var frac = String(scaled % p);
        s += '.' + '000'.slice(0, d - frac.length) + frac;
      }
      return sign + s + units[u][1];
    }
  }
  function count(v, signed) {
    var s = Math.abs(v).toLocaleString('en-US', { maximumFractionDigits: 3 });
    if (s === '0' && v !== 0) s = '<0.001';
    return (v < 0 ? '-' : (v > 0 && signed ? '+' : '')) + s;
  }
  // Bytes as tracediff writes them (src/util/format.cpp format_size): 3 significant digits, kB = 1000 B.
  function size(v, signed) {
    var a = Math.round(Math.abs(v)), sign = v < 0 && a ? '-' : (v > 0 && signed ? '+' : '');
    if (a < 1000) return sign + a + ' B';
    var names = [' kB', ' MB', ' GB', ' TB', ' PB'], x = a / 1000, u = 0;
    while (u < names.length - 1 && x >= 999.5) { x /= 1000; ++u; }
    return sign + (x >= 99.95 ? x.toFixed(0) : x >= 9.995 ? x.toFixed(1) : x.toFixed(2)) + names[u];
  }
  function pct(c, t) {
    if (c === 0) return t === 0 ? '' : 'new';
    var x = (t - c) / c * 100;
    if (x >= 900) {
      var f = 1 + x / 100;
      return '\u00d7' + (f < 99.95 ? f.toFixed(1) : group(String(Math.round(f))));
    }
    var tenths = Math.round(Math.abs(x) * 10);
    return (tenths === 0 ? '' : x < 0 ? '-' : '+') + group(String(Math.floor(tenths / 10))) + '.' + (tenths % 10) + '%';
  }

  // --- colour: red more time, blue less; saturation by the size of the change, measured
  // against the smaller side (so ×2 and ÷2 are equally deep): 10 % pale, ≥100 % full.
  // Judged the same within noise: grey. Not testable (too few steps a side): the raw
  // change's colour all the same, hatched, so that a comparison of one step a side
  // still shows what moved. Each theme its own ramps: pale is near its background.
  var THEMES = {
    light: { red: [[251, 214, 208], [206, 44, 38]], blue: [[212, 226, 250], [38, 96, 196]], grey: [218, 222, 229],
             ink: '29,36,51', veil: 'rgba(255,255,255,0.45)', hatch: 'rgba(255,255,255,0.6)', muted: '#5b6474' },
    dark: { red: [[78, 46, 48], [232, 92, 80]], blue: [[40, 54, 86], [96, 150, 236]], grey: [62, 68, 80],
            ink: '230,233,239', veil: 'rgba(0,0,0,0.4)', hatch: 'rgba(10,14,20,0.5)', muted: '#a3acbd' }
  };
  var darkQuery = window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : null;
  function theme() { return darkQuery && darkQuery.matches ? THEMES.dark : THEMES.light; }
  function mix(pair, k) {
    return [0, 1, 2].map(function (j) { return Math.round(pair[0][j] + (pair[1][j] - pair[0][j]) * k); });
  }
  function colourOf(i, gpu) {
    var th = theme();
    var v = verdict(i, gpu);
    var c = num(i, gpu ? 7 : 3), t = num(i, gpu ? 8 : 4);
    if (state.mem) {  // no noise test per node: more bytes is slower's colour, fewer faster's
      c = num(i, 15), t = num(i, 16);
      v = c === t ? 2 : t > c ? 0 : 1;
    }
    if (v === 2 || (v === 3 && c === t)) return th.grey;
    var lo = Math.min(c, t), hi = Math.max(c, t);
    var rel = lo > 0 ? hi / lo - 1 : Infinity;  // new or gone: full
    var k = Math.max(0, Math.min(1, (rel - 0.1) / 0.9));
    var slower = v === 3 ? t > c : v === 0;
    return mix(slower ? th.red : th.blue, 0.15 + 0.85 * k);
  }
  function hatched(i, gpu) { return !state.mem && verdict(i, gpu) === 3; }
  var hatches = {};  // per theme: a canvas pattern of diagonal stripes
  function hatchOf(th) {
    if (hatches[th.hatch] !== undefined) return hatches[th.hatch];
    var tile = document.createElement('canvas');
    tile.width = tile.height = 6;
    var g = tile.getContext('2d');
    var p = null;
    if (g) {
      g.strokeStyle = th.hatch;
      g.lineWidth = 1.6;
      g.beginPath();
      g.moveTo(-1, 7); g.lineTo(7, -1);
      g.moveTo(-1, 1); g.lineTo(1, -1);
      g.moveTo(5, 7); g.lineTo(7, 5);
      g.stroke();
      p = ctx.createPattern(tile, 'repeat');
    }
    return (hatches[th.hatch] = p);
  }
  function rgb(c, a) { return a === undefined ? 'rgb(' + c.join(',') + ')' : 'rgba(' + c.join(',') + ',' + a + ')'; }
  function dark(c) { return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2] < 150; }

  // --- building blocks
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function segmented(legend, name, options, onPick) {
    var set = el('fieldset', 'flame-switch');
    set.appendChild(el('legend', '', legend));
    options.forEach(function (o, k) {
      var lab = el('label');
      var box = el('input');
      box.type = 'radio';
      box.name = name;
      box.value = o[0];
      box.checked = k === 0;
      box.addEventListener('change', function () { if (box.checked) onPick(o[0]); });
      lab.appendChild(box);
      lab.appendChild(el('span', '', o[1]));
      if (o[2]) lab.setAttribute('title', o[2]);
      set.appendChild(lab);
    });
    return set;
  }

  // --- the toolbar
  var bar = el('div', 'flame-toolbar');
  var searchLabel = el('label', 'flame-find');
  searchLabel.appendChild(el('span', '', 'Search'));
  var search = el('input');
  search.type = 'search';
  search.id = 'flame-search';
  search.placeholder = 'operator, kernel or frame';
  search.autocomplete = 'off';
  search.spellcheck = false;
  searchLabel.appendChild(search);
  bar.appendChild(searchLabel);
  var found = el('output', 'flame-found');
  found.id = 'flame-found';
  found.setAttribute('for', 'flame-search');
  found.setAttribute('aria-live', 'polite');
  bar.appendChild(found);
  // The sides by their labels (untrusted: textContent only).
  bar.appendChild(segmented('Width:', 'flame-width', [
    ['larger', 'larger side', 'Each frame as wide as the larger of its two sides: work that one side no longer does still shows'],
    ['control', labels[0], 'Each frame as wide as on ' + labels[0]],
    ['test', labels[1], 'Each frame as wide as on ' + labels[1]]],
    function (v) { state.side = v === 'test' ? 1 : v === 'control' ? 0 : LARGER; redraw(true); }));
  bar.appendChild(segmented('Time:', 'flame-metric', [['host', 'host'], ['gpu', 'GPU']].concat(hasMemory ? [
    ['memory', 'memory', 'Each frame as wide as the device bytes allocated at or under it per ' + unit]] : []),
    function (v) { state.gpu = v === 'gpu'; state.mem = v === 'memory'; redraw(true); }));
  var reset = el('button', 'flame-reset', 'Reset zoom');
  reset.type = 'button';
  reset.id = 'flame-reset';
  reset.addEventListener('click', function () { zoomTo(-1); });
  bar.appendChild(reset);
  holder.appendChild(bar);

  var crumbs = el('nav', 'flame-crumbs');
  crumbs.id = 'flame-crumbs';
  crumbs.setAttribute('aria-label', 'Zoomed call path');
  holder.appendChild(crumbs);

  var legend = el('div', 'flame-legend');
  legend.setAttribute('aria-hidden', 'true');
  [['slower', 'k-slower'], ['faster', 'k-faster'], ['same within noise', 'k-same'],
   ['not testable: the raw change, hatched', 'k-untested']]
    .forEach(function (x) {
      var s = el('span');
      s.appendChild(el('i', 'key ' + x[1]));
      s.appendChild(document.createTextNode(x[0]));
      legend.appendChild(s);
    });
  legend.appendChild(el('span', 'flame-legend-note',
    'deeper colour: larger relative change (full at \u00d72 or \u00f72, new or gone) \u00b7 underlined: GPU work \u00b7 ' +
    'order: widest first'));
  holder.appendChild(legend);

  var wrap = el('div', 'flame-canvas-wrap');
  var canvas = el('canvas');
  canvas.id = 'flame-canvas';
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', 'Differential flame graph of the call tree; the tree table below has the same paths');
  wrap.appendChild(canvas);
  holder.appendChild(wrap);
  var tip = el('div', 'flame-tip');
  tip.id = 'flame-tip';
  tip.setAttribute('role', 'tooltip');
  tip.hidden = true;
  document.body.appendChild(tip);

  // --- layout: a parent's layout width is the larger of its value and its children's sum,
  // so children never overflow it. Computed from the leaves up (children follow parents).
  var span = new Float64Array(n);
  function spans() {
    for (var i = n - 1; i >= 0; --i) {
      var s = 0, ks = kids[i];
      for (var k = 0; k < ks.length; ++k) s += span[ks[k]];
      span[i] = Math.max(Math.max(0, value(i)), s);
    }
  }

  var boxes = [];   // {i, x, y, w, h, text} in CSS px of the canvas
  var rows = [];    // per level: its boxes, left to right
  var cssWidth = 0;
  function place(i, x, w, lvl) {
    if (w < MIN_FRAME) return;
    var b = { i: i, x: x, y: lvl * ROW, w: w, h: ROW - 1, text: '' };
    boxes.push(b);
    (rows[lvl] || (rows[lvl] = [])).push(b);
    var ks = kids[i];
    if (!span[i]) return;
    var scale = w / span[i], cx = x;
    for (var k = 0; k < ks.length; ++k) {
      var cw = span[ks[k]] * scale;
      place(ks[k], cx, cw, lvl + 1);
      cx += cw;
    }
  }
  function layout() {
    spans();
    boxes = [];
    rows = [];
    var w = cssWidth;
    if (state.zoom >= 0) {
      var chain = path(state.zoom);
      for (var a = 0; a < chain.length - 1; ++a) {
        var b = { i: chain[a], x: 0, y: a * ROW, w: w, h: ROW - 1, text: '', above: true };
        boxes.push(b);
        rows[a] = [b];
      }
      place(state.zoom, 0, w, chain.length - 1);
      if (!rows[chain.length - 1]) {  // zero wide on this side: still a full row to click
        var z = { i: state.zoom, x: 0, y: (chain.length - 1) * ROW, w: w, h: ROW - 1, text: '' };
        boxes.push(z);
        rows[chain.length - 1] = [z];
      }
    } else {
      var total = 0;
      roots.forEach(function (r) { total += span[r]; });
      var x = 0;
      if (total > 0) {
        roots.forEach(function (r) {
          var rw = span[r] / total * w;
          place(r, x, rw, 0);
          x += rw;
        });
      }
    }
    boxes.forEach(fitLabel);
  }

  var measure = canvas.getContext('2d');
  // The label that fits the frame: whole, or cut with an ellipsis.
  function fitLabel(b) {
    var room = b.w - 8;
    if (b.w < MIN_LABEL) return;
    measure.font = FONT;
    var s = label(b.i);
    if (b.above) s = s + '  \u2191';
    if (measure.measureText(s).width <= room) { b.text = s; return; }
    var cps = Array.from(s);
    var lo = 0, hi = cps.length;
    while (lo < hi) {  // the longest head that fits with its ellipsis
      var mid = (lo + hi + 1) >> 1;
      if (measure.measureText(cps.slice(0, mid).join('') + '\u2026').width <= room) lo = mid;
      else hi = mid - 1;
    }
    b.text = lo > 0 ? cps.slice(0, lo).join('') + '\u2026' : '';
  }

  function path(i) {
    var chain = [];
    for (var a = i; a >= 0; a = parent[a]) chain.push(a);
    return chain.reverse();
  }

  // --- drawing
  var ctx = canvas.getContext('2d');
  function draw() {
    var dpr = window.devicePixelRatio || 1;
    var levels = Math.max(1, rows.length);
    var h = levels * ROW + 1;
    var pw = Math.max(1, Math.round(cssWidth * dpr)), ph = Math.max(1, Math.round(h * dpr));
    if (canvas.width !== pw || canvas.height !== ph) {  // a resize clears; a hover need not
      canvas.style.width = cssWidth + 'px';
      canvas.style.height = h + 'px';
      canvas.width = pw;
      canvas.height = ph;
    }
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, cssWidth, h);
    ctx.font = FONT;
    ctx.textBaseline = 'middle';
    var th = theme();
    if (!boxes.length) {
      ctx.fillStyle = th.muted;
      ctx.fillText('Nothing to show: no ' + (state.mem ? 'memory allocated' : (state.gpu ? 'GPU' : 'host') + ' time') +
                   (state.side === LARGER ? '.' : ' on ' + labels[state.side] + '.'), 8, ROW / 2);
      return;
    }
    var searching = match !== null;
    var stripes = hatchOf(th);
    for (var k = 0; k < boxes.length; ++k) {
      var b = boxes[k];
      var on = !searching || match[b.i];
      var c = colourOf(b.i, state.gpu);
      ctx.fillStyle = on ? rgb(c) : rgb(c, 0.28);
      var w = Math.max(b.w - (b.w > 3 ? 1 : 0), 0.5);  // a hairline between neighbours
      ctx.fillRect(b.x, b.y, w, b.h);
      if (stripes && on && w > 2 && hatched(b.i, state.gpu)) {
        ctx.fillStyle = stripes;
        ctx.fillRect(b.x, b.y, w, b.h);
      }
      if (b.above) {
        ctx.fillStyle = th.veil;
        ctx.fillRect(b.x, b.y, w, b.h);
      }
      if (isGpu(b.i) && w > 4) {  // GPU work: a line under the frame
        ctx.fillStyle = 'rgba(' + th.ink + (on ? ',0.55)' : ',0.15)');
        ctx.fillRect(b.x, b.y + b.h - 2, w, 2);
      }
      if (b.text) {
        var light = th === THEMES.dark || (dark(c) && !b.above);  // dark ramps: light text on all
        ctx.fillStyle = !on ? 'rgba(' + th.ink + ',0.4)' : light ? '#ffffff' : '#1d2433';
        ctx.font = isOther(b.i) ? 'italic ' + FONT : FONT;
        ctx.fillText(b.text, b.x + 4, b.y + b.h / 2 + 0.5);
      }
    }
    if (searching) {
      ctx.lineWidth = 1.5;
      ctx.strokeStyle = 'rgb(' + th.ink + ')';
      for (var m = 0; m < boxes.length; ++m) {
        var bm = boxes[m];
        if (match[bm.i] && bm.w >= 2) ctx.strokeRect(bm.x + 0.75, bm.y + 0.75, Math.max(bm.w - 2.5, 0.5), bm.h - 1.5);
      }
    }
    var hb = state.hover >= 0 ? boxOf(state.hover) : null;
    if (hb) {
      ctx.lineWidth = 2;
      ctx.strokeStyle = '#f5b100';
      ctx.strokeRect(hb.x + 1, hb.y + 1, Math.max(hb.w - 3, 1), hb.h - 2);
    }
  }
  function boxOf(i) {
    for (var k = 0; k < boxes.length; ++k) if (boxes[k].i === i && !boxes[k].above) return boxes[k];
    for (var q = 0; q < boxes.length; ++q) if (boxes[q].i === i) return boxes[q];
    return null;
  }

  var pending = 0;
  function redraw(relayout) {
    if (relayout) layout();
    draw();
  }
  var drawnDpr = window.devicePixelRatio || 1;
  function resized() {
    var w = Math.floor(wrap.clientWidth), dpr = window.devicePixelRatio || 1;
    if (w > 0 && w !== cssWidth) {
      cssWidth = w;
      redraw(true);
    } else if (dpr !== drawnDpr) {
      draw();
    }
    drawnDpr = dpr;
  }
  function scheduleResize() {
    if (pending) return;
    pending = requestAnimationFrame(function () { pending = 0; resized(); });
  }

  function hit(x, y) {
    var r = rows[Math.floor(y / ROW)];
    if (!r || y % ROW >= ROW - 1) return null;
    var lo = 0, hi = r.length - 1;
    while (lo <= hi) {  // boxes of a level are left to right
      var mid = (lo + hi) >> 1;
      if (r[mid].x + r[mid].w <= x) lo = mid + 1;
      else if (r[mid].x > x) hi = mid - 1;
      else return r[mid];
    }
    return null;
  }

  // --- zoom and breadcrumb
  function zoomTo(i) {
    state.zoom = i;
    redraw(true);
    crumbsUpdate();
  }
  function crumbsUpdate() {
    while (crumbs.firstChild) crumbs.removeChild(crumbs.firstChild);
    var list = el('ol');
    var chain = state.zoom >= 0 ? path(state.zoom) : [];
    var all = el('li');
    var top = el('button', '', 'All paths');
    top.type = 'button';
    top.addEventListener('click', function () { zoomTo(-1); });
    all.appendChild(top);
    list.appendChild(all);
    chain.forEach(function (a, k) {
      var li = el('li');
      if (k === chain.length - 1) {
        var here = el('span', 'here', label(a));
        here.setAttribute('aria-current', 'location');
        li.appendChild(here);
      } else {
        var b = el('button', '', label(a));
        b.type = 'button';
        b.addEventListener('click', function () { zoomTo(a); });
        li.appendChild(b);
      }
      list.appendChild(li);
    });
    crumbs.appendChild(list);
    reset.disabled = state.zoom < 0;
  }

  // --- the tooltip
  function elide(parts) {
    var out = parts.length > 7 ? parts.slice(0, 2).concat(['\u2026'], parts.slice(-4)) : parts.slice();
    var s = out.join(' \u203a ');
    var cps = Array.from(s);
    return cps.length > 240 ? cps.slice(0, 110).join('') + ' \u2026 ' + cps.slice(-110).join('') : s;
  }
  function figures(i) {
    return [
      ['inclusive', num(i, 3), num(i, 4), dur],
      ['self', num(i, 5), num(i, 6), dur],
      ['GPU', num(i, 7), num(i, 8), dur],
      ['calls', num(i, 9), num(i, 10), count]
    ].concat(hasMemory ? [['allocated', num(i, 15), num(i, 16), size], ['allocated self', num(i, 13), num(i, 14), size]] : []);
  }
  function showTip(b, ev) {
    var i = b.i;
    while (tip.firstChild) tip.removeChild(tip.firstChild);
    tip.appendChild(el('div', 'tip-name', full(i)));
    var chain = path(i).slice(0, -1).map(label);
    if (chain.length) tip.appendChild(el('div', 'tip-path', elide(chain)));
    var t = el('table', 'tip-figs');
    var head = el('tr');
    ['per ' + unit, labels[0], labels[1], '\u0394', '\u0394 %'].forEach(function (h) { head.appendChild(el('th', '', h)); });
    t.appendChild(head);
    figures(i).forEach(function (f) {
      var tr = el('tr');
      tr.appendChild(el('th', '', f[0]));
      tr.appendChild(el('td', '', f[3](f[1], false)));
      tr.appendChild(el('td', '', f[3](f[2], false)));
      tr.appendChild(el('td', '', f[3](f[2] - f[1], true)));
      tr.appendChild(el('td', '', pct(f[1], f[2])));
      t.appendChild(tr);
    });
    tip.appendChild(t);
    var v = verdict(i, false), gv = verdict(i, true);
    var line = el('div', 'tip-verdict');
    var host = el('span', 'v-' + CLS[v], SYMS[v] + ' ' + WORDS[v]);
    line.appendChild(document.createTextNode(isGpu(i) ? 'GPU time: ' : 'Inclusive time: '));
    line.appendChild(host);
    if (!isGpu(i) && (num(i, 7) || num(i, 8))) {
      line.appendChild(document.createTextNode(' \u00b7 GPU time launched: '));
      line.appendChild(el('span', 'v-' + CLS[gv], SYMS[gv] + ' ' + WORDS[gv]));
    }
    tip.appendChild(line);
    tip.appendChild(el('div', 'tip-hint', b.above ? 'Click to zoom out to here' : 'Click to zoom in'));
    tip.hidden = false;
    placeTip(ev);
  }
  function placeTip(ev) {
    var pad = 14, w = tip.offsetWidth, h = tip.offsetHeight;
    var x = ev.clientX + pad, y = ev.clientY + pad;
    if (x + w > window.innerWidth - 4) x = Math.max(4, ev.clientX - w - pad);
    if (y + h > window.innerHeight - 4) y = Math.max(4, ev.clientY - h - pad);
    tip.style.left = x + 'px';
    tip.style.top = y + 'px';
  }
  function hideTip() {
    tip.hidden = true;
    if (state.hover >= 0) {
      state.hover = -1;
      draw();
    }
  }

  function at(ev) {
    var r = canvas.getBoundingClientRect();
    return hit(ev.clientX - r.left, ev.clientY - r.top);
  }
  canvas.addEventListener('mousemove', function (ev) {
    var b = at(ev);
    if (!b) { hideTip(); canvas.style.cursor = ''; return; }
    canvas.style.cursor = 'pointer';
    if (state.hover !== b.i || tip.hidden) {
      state.hover = b.i;
      draw();
      showTip(b, ev);
    } else {
      placeTip(ev);
    }
  });
  canvas.addEventListener('mouseleave', hideTip);
  canvas.addEventListener('click', function (ev) {
    var b = at(ev);
    if (!b) return;
    hideTip();
    if (b.i !== state.zoom) zoomTo(b.i);
    reveal(b.i, false);
  });
  // Escape zooms out from anywhere in the graph and its table, or with nothing focused.
  document.addEventListener('keydown', function (ev) {
    if (ev.key !== 'Escape' || (ev.target === search && search.value)) return;
    if (ev.target !== document.body && !holder.contains(ev.target)) return;
    hideTip();
    if (state.zoom >= 0) zoomTo(-1);
  });
  window.addEventListener('scroll', function () { if (!tip.hidden) hideTip(); }, { passive: true });

  // --- search
  search.addEventListener('input', function () {
    var q = search.value.trim().toLowerCase();
    var hits = 0;
    if (q === '') {
      match = null;
    } else {
      match = new Uint8Array(n);
      for (var i = 0; i < n; ++i) {
        if (label(i).toLowerCase().indexOf(q) !== -1 || full(i).toLowerCase().indexOf(q) !== -1) {
          match[i] = 1;
          ++hits;
        }
      }
    }
    found.textContent = q === '' ? '' : hits.toLocaleString('en-US') + (hits === 1 ? ' matching path' : ' matching paths');
    for (var r = 0; r < n; ++r) if (rowEls[r]) rowEls[r].classList.toggle('match', !!(match && match[r]));
    draw();
  });

  // --- the tree table
  var tableWrap = el('div', 'tree-wrap');
  var table = el('table', 'tree-table');
  table.id = 'tree-table';
  table.setAttribute('role', 'treegrid');
  table.setAttribute('aria-label', 'Call tree');
  var thead = el('thead');
  var hr = el('tr');
  [['Call path', ''], [labels[0], 'n'], [labels[1], 'n'], ['\u0394', 'n'], ['\u0394 %', 'n'], ['Verdict', ''], ['GPU \u0394', 'n']]
    .forEach(function (h) {
      var th = el('th', h[1], h[0]);
      th.scope = 'col';
      hr.appendChild(th);
    });
  thead.appendChild(hr);
  table.appendChild(thead);
  var tbody = el('tbody');
  table.appendChild(tbody);
  tableWrap.appendChild(table);
  holder.appendChild(tableWrap);
  // The rows are made a page at a time (a flat tree of 4,000 top-level paths would
  // otherwise cost a second of layout): more on request, or when the keyboard gets there.
  var PAGE = 400;
  var limit = PAGE;
  var moreBox = el('div', 'tree-more-rows');
  var more = el('button', '', '');
  more.type = 'button';
  more.id = 'tree-show-more';
  more.addEventListener('click', function () { limit += PAGE; render(); });
  moreBox.appendChild(more);
  moreBox.hidden = true;
  var keys = el('p', 'tree-keys', 'Rows: \u2191 \u2193 move \u00b7 \u2192 expand \u00b7 \u2190 collapse \u00b7 Enter zooms the graph to the row');
  holder.insertBefore(keys, tableWrap);
  holder.appendChild(moreBox);
  var left = Number(data.left_out) || 0;
  if (left > 0) {
    holder.appendChild(el('p', 'tree-more', left.toLocaleString('en-US') + ' smaller paths are not on this page: ' +
      'the JSON output has every one with --json-full-tree.'));
  }

  var expanded = new Uint8Array(n);
  for (var e0 = 0; e0 < n; ++e0) if (depth[e0] < 1 && kids[e0].length) expanded[e0] = 1;  // the top two levels shown
  var rowEls = new Array(n);
  var shownRows = [];
  var focusIdx = -1;

  function makeRow(i) {
    var v = verdict(i, false);
    var tr = el('tr', CLS[v]);
    tr.setAttribute('role', 'row');
    tr.setAttribute('aria-level', String(depth[i] + 1));
    tr.tabIndex = -1;
    tr.__i = i;
    var c = num(i, 3), t = num(i, 4);
    var name = el('td', 'tp');
    name.setAttribute('role', 'gridcell');
    name.style.paddingLeft = (6 + depth[i] * 14) + 'px';
    var tog = el('span', 'tog');
    tog.setAttribute('aria-hidden', 'true');
    if (kids[i].length) {
      tog.addEventListener('click', function (ev) {
        ev.stopPropagation();
        setExpanded(i, !expanded[i]);
        focusRow(i);
      });
    }
    name.appendChild(tog);
    var sw = el('i', hatched(i, false) ? 'sw hatch' : 'sw');
    sw.style.backgroundColor = rgb(colourOf(i, false));
    name.appendChild(sw);
    // "name [kind]": the label of a name that two kinds of node share; the name as it is,
    // the kind beside it.
    var lab = label(i), nm = full(i);
    var kind = lab.length > nm.length && lab.lastIndexOf(nm, 0) === 0 && /^ \[[^\]]+\]$/.test(lab.slice(nm.length));
    name.appendChild(el('span', 'nm', kind ? nm : lab));
    if (kind) name.appendChild(el('span', 'kind', lab.slice(nm.length + 2, -1)));
    else if (nm !== lab) name.setAttribute('title', nm);
    if (isGpu(i)) name.appendChild(el('span', 'badge', 'GPU'));
    tr.appendChild(name);
    var cells = [[dur(c, false), 'n'], [dur(t, false), 'n'], [dur(t - c, true), 'n d'], [pct(c, t), 'n d'],
                 [SYMS[v] + ' ' + WORDS[v], 'vd'], [isGpu(i) || num(i, 7) || num(i, 8) ? dur(num(i, 8) - num(i, 7), true) : '', 'n g']];
    cells.forEach(function (x) {
      var td = el('td', x[1], x[0]);
      td.setAttribute('role', 'gridcell');
      tr.appendChild(td);
    });
    if (match && match[i]) tr.classList.add('match');
    return tr;
  }
  function rowOf(i) { return rowEls[i] || (rowEls[i] = makeRow(i)); }

  // Only rows whose ancestors are all expanded exist in the table.
  var visibleAll = [];
  function render() {
    var visible = new Uint8Array(n);
    visibleAll = [];
    for (var i = 0; i < n; ++i) {
      var p = parent[i];
      if (p >= 0 && !(visible[p] && expanded[p])) continue;
      visible[i] = 1;
      visibleAll.push(i);
    }
    var frag = document.createDocumentFragment();
    shownRows = visibleAll.slice(0, limit);
    shownRows.forEach(function (k) {
      var tr = rowOf(k);
      if (kids[k].length) {
        tr.setAttribute('aria-expanded', expanded[k] ? 'true' : 'false');
        tr.cells[0].firstChild.textContent = expanded[k] ? '\u25BE' : '\u25B8';
      }
      frag.appendChild(tr);
    });
    while (tbody.firstChild) tbody.removeChild(tbody.firstChild);
    tbody.appendChild(frag);
    var rest = visibleAll.length - shownRows.length;
    moreBox.hidden = rest <= 0;
    more.textContent = 'Show ' + Math.min(rest, PAGE).toLocaleString('en-US') + ' more rows (' +
                       rest.toLocaleString('en-US') + ' not shown)';
    if (focusIdx < 0 || !visible[focusIdx]) setRoving(shownRows.length ? shownRows[0] : -1);
  }
  // Rows up to node i made (it is visible): for reveal and the keyboard.
  function reach(i) {
    var pos = visibleAll.indexOf(i);
    if (pos >= limit) {
      limit = (Math.floor(pos / PAGE) + 1) * PAGE;
      render();
    }
  }
  function setExpanded(i, on) {
    if (!kids[i].length || !!expanded[i] === on) return;
    expanded[i] = on ? 1 : 0;
    render();
  }
  function setRoving(i) {
    if (focusIdx >= 0 && rowEls[focusIdx]) rowEls[focusIdx].tabIndex = -1;
    focusIdx = i;
    if (i >= 0) rowOf(i).tabIndex = 0;
  }
  function focusRow(i) {
    setRoving(i);
    var tr = rowOf(i);
    if (!tr.parentNode) return;
    tr.focus({ preventScroll: true });
    // Scroll the table's own box, never the page.
    var top = tr.offsetTop - thead.offsetHeight, bottom = tr.offsetTop + tr.offsetHeight;
    if (top < tableWrap.scrollTop) tableWrap.scrollTop = top;
    else if (bottom > tableWrap.scrollTop + tableWrap.clientHeight) tableWrap.scrollTop = bottom - tableWrap.clientHeight;
  }
  // A frame clicked: its row shown (ancestors expanded) and focused.
  function reveal(i, scrollPage) {
    var changed = false;
    for (var a = parent[i]; a >= 0; a = parent[a]) {
      if (!expanded[a]) { expanded[a] = 1; changed = true; }
    }
    if (changed) render();
    reach(i);
    focusRow(i);
    if (scrollPage) rowOf(i).scrollIntoView({ block: 'nearest' });
  }

  tbody.addEventListener('click', function (ev) {
    var tr = ev.target.closest ? ev.target.closest('tr') : null;
    if (tr && tr.__i !== undefined) focusRow(tr.__i);
  });
  tbody.addEventListener('dblclick', function (ev) {
    var tr = ev.target.closest ? ev.target.closest('tr') : null;
    if (tr && tr.__i !== undefined) zoomTo(tr.__i);
  });
  tbody.addEventListener('keydown', function (ev) {
    var tr = ev.target;
    if (!tr || tr.__i === undefined) return;
    var i = tr.__i, pos = shownRows.indexOf(i), done = true;
    switch (ev.key) {
      case 'ArrowDown':
        if (pos + 1 >= shownRows.length && pos + 1 < visibleAll.length) reach(visibleAll[pos + 1]);
        if (pos + 1 < shownRows.length) focusRow(shownRows[pos + 1]);
        break;
      case 'ArrowUp': if (pos > 0) focusRow(shownRows[pos - 1]); break;
      case 'Home': focusRow(shownRows[0]); break;
      case 'End': reach(visibleAll[visibleAll.length - 1]); focusRow(shownRows[shownRows.length - 1]); break;
      case 'ArrowRight':
        if (kids[i].length && !expanded[i]) { setExpanded(i, true); focusRow(i); }
        else if (kids[i].length) { reach(kids[i][0]); focusRow(kids[i][0]); }
        break;
      case 'ArrowLeft':
        if (kids[i].length && expanded[i]) { setExpanded(i, false); focusRow(i); }
        else if (parent[i] >= 0) focusRow(parent[i]);
        break;
      case 'Enter':
        zoomTo(i);
        break;
      default: done = false;
    }
    if (done) ev.preventDefault();
  });

  // --- start
  holder.hidden = false;
  cssWidth = Math.floor(wrap.clientWidth) || 800;
  layout();
  draw();
  crumbsUpdate();
  render();
  if (typeof ResizeObserver === 'function') new ResizeObserver(scheduleResize).observe(wrap);
  else window.addEventListener('resize', scheduleResize);
  // A move to a screen of another pixel ratio: redraw sharp.
  window.addEventListener('resize', scheduleResize);
  // The theme changed: the graph and the table's swatches (host time) in its colours.
  if (darkQuery) {
    var retheme = function () {
      draw();
      rowEls.forEach(function (tr, i) { if (tr) tr.cells[0].querySelector('.sw').style.backgroundColor = rgb(colourOf(i, false)); });
    };
    if (darkQuery.addEventListener) darkQuery.addEventListener('change', retheme);
    else if (darkQuery.addListener) darkQuery.addListener(retheme);
  }

  // For tests and the curious: where each frame is, and the zoom.
  window.__flame = {
    layout: function () {
      return boxes.map(function (b) {
        return { i: b.i, x: b.x, y: b.y, w: b.w, h: b.h, label: label(b.i), name: full(b.i), above: !!b.above,
                 fill: rgb(colourOf(b.i, state.gpu)), hatched: hatched(b.i, state.gpu) };
      });
    },
    zoom: function (i) { zoomTo(typeof i === 'number' && i >= 0 && i < n ? i : -1); },
    zoomed: function () { return state.zoom; },
    nodes: n
  };
})();
