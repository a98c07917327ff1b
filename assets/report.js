/* tracediff report script: draws the charts and makes the table sortable and
 * filterable. Untrusted text (operator names) only ever goes through textContent,
 * element attributes read back as text, and Chart.js (which paints on a canvas).
 * Never innerHTML. Without this script the page still shows everything. */
(function () {
  'use strict';

  var data;
  try {
    data = JSON.parse(document.getElementById('data').textContent);
  } catch (e) {
    data = { labels: ['Control', 'Test'], charts: [] };
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
    return Number.isInteger(v) ? v.toLocaleString('en-US') : '';
  }

  // Chart labels have less room than table cells: keep the head and the tail.
  function chartLabel(s) {
    var cps = Array.from(s);
    if (cps.length <= 40) return s;
    return cps.slice(0, 27).join('') + '\u2026' + cps.slice(cps.length - 12).join('');
  }

  // --- charts
  function drawCharts() {
    if (typeof Chart === 'undefined') return;
    var font = getComputedStyle(document.body).fontFamily;
    Chart.defaults.font.family = font;
    Chart.defaults.font.size = 12;
    Chart.defaults.color = '#1d2433';
    data.charts.forEach(function (spec) {
      var fig = document.getElementById('chart-' + spec.id);
      if (!fig || !spec.rows.length) return;
      var wrap = fig.querySelector('.canvas-wrap');
      var canvas = wrap && wrap.querySelector('canvas');
      if (!canvas) return;
      var isDuration = spec.unit === 'ns';
      var max = 0;
      spec.rows.forEach(function (r) {
        max = Math.max(max, Math.abs(r.c), Math.abs(r.t), Math.abs(r.d));
      });
      var unit = durationUnit(max);
      var texts = ['ct', 'tt', 'dt'];
      wrap.hidden = false;
      try {
        new Chart(canvas, {
          type: 'bar',
          data: {
            labels: spec.rows.map(function (r) { return chartLabel(r.name); }),
            datasets: [
              { label: data.labels[0], data: spec.rows.map(function (r) { return r.c; }), backgroundColor: '#4e79a7' },
              { label: data.labels[1], data: spec.rows.map(function (r) { return r.t; }), backgroundColor: '#e8772e' },
              { label: 'Difference', data: spec.rows.map(function (r) { return r.d; }), backgroundColor: '#7a6bb0' }
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
            plugins: {
              legend: { position: 'top', align: 'start', labels: { boxWidth: 12, boxHeight: 12 } },
              tooltip: {
                callbacks: {
                  title: function (items) { return items.length ? spec.rows[items[0].dataIndex].name : ''; },
                  label: function (item) {
                    return item.dataset.label + ': ' + spec.rows[item.dataIndex][texts[item.datasetIndex]];
                  }
                }
              }
            },
            scales: {
              x: {
                grid: { color: '#eef0f3' },
                title: { display: true, text: isDuration ? 'total duration (' + unit[1] + ')' : 'count' },
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
      } catch (e) {
        wrap.hidden = true;  // keep the static bars
      }
    });
  }

  // --- the table
  function initTable() {
    var table = document.getElementById('diff-table');
    if (!table) return;
    var tbody = table.tBodies[0];
    var rows = Array.prototype.slice.call(tbody.rows);
    var ths = Array.prototype.slice.call(table.tHead.rows[0].cells);
    var controls = document.querySelector('.controls');
    var filter = document.getElementById('filter');
    var shown = document.getElementById('shown');
    var sortState = { col: -1, dir: 0 };

    rows.forEach(function (tr, i) {
      var nm = tr.cells[0];
      tr.__order = i;
      tr.__text = ((nm.getAttribute('title') || nm.textContent) + '\n' + nm.textContent + '\n' +
                   tr.cells[1].textContent).toLowerCase();
    });

    function key(tr, col, type) {
      var td = tr.cells[col];
      if (type === 'text') return (col === 0 ? (td.getAttribute('title') || td.textContent) : td.textContent).toLowerCase();
      var v = td.getAttribute('data-v');
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
    });

    function checked(name) {
      var on = {};
      document.querySelectorAll('input[name="' + name + '"]').forEach(function (box) {
        on[box.value] = box.checked;
      });
      return on;
    }

    function applyFilter() {
      var q = filter.value.trim().toLowerCase();
      var changes = checked('change');
      var devices = checked('device');
      var n = 0;
      rows.forEach(function (tr) {
        var ok = changes[tr.getAttribute('data-change')] !== false &&
                 devices[tr.getAttribute('data-device')] !== false &&
                 (q === '' || tr.__text.indexOf(q) !== -1);
        tr.hidden = !ok;
        if (ok) ++n;
      });
      shown.textContent = 'Showing ' + n.toLocaleString('en-US') + ' of ' + rows.length.toLocaleString('en-US') + ' rows';
    }

    filter.addEventListener('input', applyFilter);
    controls.addEventListener('change', applyFilter);
    controls.hidden = false;
    applyFilter();
  }

  document.documentElement.classList.add('js');
  initTable();
  drawCharts();
})();
