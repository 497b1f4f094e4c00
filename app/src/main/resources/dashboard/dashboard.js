/*
 * Privacy Gateway dashboard. Polls /api/history every two seconds and draws, per workload, the estimates
 * with their error bands over the last windows, the latest window (CDF curve, bars, one-bucket ranges or
 * marginal small multiples), n and ε per window, and the rejected reports by reason over time. A banner says
 * when answers stop arriving (the server decides "stale") or when the API itself stops answering.
 * Charts: uPlot, served from the gateway's own jar. Labels are always inserted as text, never as HTML.
 */
'use strict';
(() => {
  const POLL_MS = 2000;
  const FETCH_TIMEOUT_MS = 4000;
  const WIDE = 8;          // more labels than this: show only a selection over time
  const TOP = 6;           // ...of this many labels by default
  const BARS_MAX = 20;     // latest-window bars drawn at most
  const PALETTE = ['#4e79a7', '#f28e2b', '#e15759', '#59a14f', '#76b7b2', '#edc948', '#b07aa1', '#ff9da7',
    '#9c755f', '#8cd17d'];
  const SVGNS = 'http://www.w3.org/2000/svg';

  const state = {
    data: null, failing: false, renders: 0, themeGen: 0,
    cards: new Map(), plots: {}, rejectionPlot: null,
  };

  // ---- small helpers ------------------------------------------------------------------------------
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }
  // a chart's container and its legend, found again by name (data-chart / data-legend) when they are drawn
  function chartDiv(name) {
    const e = el('div', 'chart');
    e.dataset.chart = name;
    return e;
  }
  function legendDiv(name) {
    const e = el('div', 'legend');
    e.dataset.legend = name;
    return e;
  }
  function svgEl(tag, attrs, text) {
    const e = document.createElementNS(SVGNS, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function cssVar(name) {
    return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  }
  function rgba(hex, a) {
    const h = hex.replace('#', '');
    const n = parseInt(h.length === 3 ? h.split('').map(c => c + c).join('') : h, 16);
    return `rgba(${(n >> 16) & 255},${(n >> 8) & 255},${n & 255},${a})`;
  }
  const isNum = v => typeof v === 'number' && Number.isFinite(v);
  function fmt(v, digits = 3) {
    return isNum(v) ? v.toFixed(digits) : '–';
  }
  function fmtInt(v) {
    return isNum(v) && v >= 0 ? Math.round(v).toLocaleString('en-US') : '–';
  }
  function fmtCompact(v) {
    if (!isNum(v)) return '';
    const a = Math.abs(v);
    if (a >= 1e6) return (v / 1e6).toFixed(1) + 'M';
    if (a >= 1e4) return (v / 1e3).toFixed(0) + 'k';
    if (a >= 1e3) return (v / 1e3).toFixed(1) + 'k';
    return String(Math.round(v * 100) / 100);
  }
  function fmtEps(v) {
    if (!isNum(v)) return '–';
    return Number.isInteger(v) ? String(v) : String(Math.round(v * 1000) / 1000);
  }
  function two(n) { return String(n).padStart(2, '0'); }
  function fmtTime(ms) {
    const d = new Date(ms);
    return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
  }
  function fmtDuration(ms) {
    const s = Math.max(0, Math.round(ms / 1000));
    if (s < 90) return `${s} s`;
    const m = Math.round(s / 60);
    if (m < 90) return `${m} min`;
    return `${Math.round(m / 6) / 10} h`;
  }
  /** Round tick positions covering [lo, hi] with about {@code count} steps. */
  function niceTicks(lo, hi, count) {
    const raw = Math.max(1e-12, hi - lo) / Math.max(1, count);
    const p = Math.pow(10, Math.floor(Math.log10(raw)));
    const m = raw / p;
    const step = (m <= 1 ? 1 : m <= 2 ? 2 : m <= 2.5 ? 2.5 : m <= 5 ? 5 : 10) * p;
    const from = Math.floor(lo / step + 1e-9);
    const to = Math.ceil(hi / step - 1e-9);
    const ticks = [];
    for (let k = from; k <= to; k++) ticks.push(k * step);
    const digits = Math.max(0, Math.min(4, -Math.floor(Math.log10(step) + 1e-9)));
    return { ticks, lo: from * step, hi: to * step, digits };
  }
  function color(i) { return PALETTE[i % PALETTE.length]; }
  function bandAlpha() { return parseFloat(cssVar('--band-alpha')) || 0.16; }
  function labelIndex(v) {
    if (!v._index) v._index = new Map(v.labels.map((l, i) => [l, i]));
    return v._index;
  }
  function valueAt(v, key, label) {
    const i = labelIndex(v).get(label);
    if (i === undefined || !v[key]) return null;
    const x = v[key][i];
    return isNum(x) ? x : null;
  }

  // ---- interval labels "[a, b)" -------------------------------------------------------------------
  function parseInterval(l) {
    const m = /^\[([^,\[\]]+), ([^,\[\]]+)[)\]]$/.exec(l);
    return m ? [Number(m[1]), Number(m[2])] : null;
  }
  /** Indices of the one-bucket ranges among range labels, in bucket order. */
  function oneBucketRanges(labels) {
    const parsed = labels.map(parseInterval);
    if (parsed.some(p => !p || !isNum(p[0]) || !isNum(p[1]))) return [];
    const edges = [...new Set(parsed.flat())].sort((a, b) => a - b);
    const next = new Map(edges.map((e, i) => [e, edges[i + 1]]));
    return parsed.map((p, i) => [p, i]).filter(([p]) => next.get(p[0]) === p[1])
      .sort((a, b) => a[0][0] - b[0][0]).map(([, i]) => i);
  }

  // ---- label selection ----------------------------------------------------------------------------
  function defaultSelection(chart, latest) {
    const L = latest.labels;
    const est = latest.estimates || [];
    if (L.length <= WIDE) return new Set(L);
    if (chart === 'cdf') {
      const chosen = new Set();
      for (const p of [0.1, 0.25, 0.5, 0.75, 0.9]) {
        let best = -1;
        L.forEach((l, i) => {
          if (isNum(est[i]) && !chosen.has(L[i]) && (best < 0 || Math.abs(est[i] - p) < Math.abs(est[best] - p))) best = i;
        });
        if (best >= 0) chosen.add(L[best]);
      }
      return chosen;
    }
    let candidates = L.map((l, i) => i);
    if (chart === 'ranges') {
      const one = oneBucketRanges(L);
      if (one.length) candidates = one;
    }
    candidates.sort((a, b) => (isNum(est[b]) ? est[b] : -Infinity) - (isNum(est[a]) ? est[a] : -Infinity));
    return new Set(candidates.slice(0, TOP).map(i => L[i]));
  }

  // ---- uPlot plumbing -----------------------------------------------------------------------------
  /** Time-axis tick labels in 24-hour local time (seconds only when a tick is not on a whole minute). */
  function timeTicks(u, splits) {
    return splits.map(t => {
      if (t == null) return '';
      const d = new Date(t * 1000);
      return d.getSeconds() ? `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`
        : `${two(d.getHours())}:${two(d.getMinutes())}`;
    });
  }
  /** A time scale padded by half a window on each side, so bars and end points are not cut off. */
  function timeScale(halfWindowSeconds) {
    return { time: true, range: (u, lo, hi) => (lo == null ? [0, 1] : [lo - halfWindowSeconds, hi + halfWindowSeconds]) };
  }
  function axes(yValues, xOpts) {
    const stroke = cssVar('--muted');
    const grid = cssVar('--grid');
    const font = '11px system-ui, "DejaVu Sans", sans-serif';
    return [
      Object.assign({ stroke, font, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1, size: 4 },
        values: timeTicks }, xOpts || {}),
      { stroke, font, size: 48, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1, size: 4 }, values: yValues },
    ];
  }
  function widthOf(container) {
    return Math.max(220, Math.floor(container.getBoundingClientRect().width));
  }
  /** Creates a chart, or feeds new data to it when its shape (sig) has not changed. */
  function upsert(key, container, sig, makeOpts, data) {
    const fullSig = sig + '|' + state.themeGen;
    const cur = state.plots[key];
    const width = widthOf(container);
    if (cur && cur.sig === fullSig && cur.u.root.parentNode === container) {
      cur.u.setData(data);
      if (cur.u.width !== width) cur.u.setSize({ width, height: cur.u.height });
      return cur.u;
    }
    if (cur) cur.u.destroy();
    container.textContent = '';
    const u = new uPlot(makeOpts(width), data, container);
    state.plots[key] = { u, sig: fullSig, container };
    return u;
  }
  function dropPlots(prefix) {
    for (const k of Object.keys(state.plots)) {
      if (k.startsWith(prefix)) { state.plots[k].u.destroy(); delete state.plots[k]; }
    }
  }
  function yRange(min0) {
    return (u, lo, hi) => {
      if (lo == null || hi == null) return [0, 1];
      const low = min0 ? Math.min(0, lo) : lo;
      const pad = (hi - low) * 0.06 || 0.05;
      return [min0 && lo >= 0 ? 0 : low - pad, hi + pad];
    };
  }

  // ---- legends --------------------------------------------------------------------------------------
  function legendItem(name, swatch, value, dashed) {
    const item = el('span', 'item');
    const sw = el('span', 'sw');
    sw.style.background = dashed ? 'transparent' : swatch;
    if (dashed) sw.style.borderTop = `2px dashed ${swatch}`;
    item.append(sw, el('span', 'name', name), el('b', 'val', value));
    return item;
  }

  // ---- cards ----------------------------------------------------------------------------------------
  function createCard(w) {
    const card = el('section', 'card workload');
    card.dataset.workload = w.workload;
    card.id = 'w-' + w.workload.replace(/[^A-Za-z0-9_-]/g, '_');
    const head = el('div', 'card-head');
    const h2 = el('h2');
    h2.append(el('span', 'name', w.workload), el('span', 'ver', ''));
    const chips = el('div', 'chips');
    const kpis = el('div', 'kpis');
    head.append(h2, chips, kpis);
    const grid = el('div', 'grid');
    const est = el('div', 'panel');
    const estTitle = el('h3');
    const estLegend = legendDiv('estimates');
    const estChart = chartDiv('estimates');
    const pick = el('details', 'pick');
    est.append(estTitle, estLegend, estChart, pick);
    const latest = el('div', 'panel');
    const latestTitle = el('h3');
    const latestLegend = legendDiv('latest');
    const latestChart = chartDiv('latest');
    // wide marginal workloads: choose which attribute sets the small multiples show
    const setFilter = document.createElement('input');
    setFilter.type = 'search';
    setFilter.className = 'set-filter';
    setFilter.dataset.filter = 'attribute-sets';
    setFilter.placeholder = 'Attribute sets containing… (e.g. two attribute names)';
    setFilter.hidden = true;
    latest.append(latestTitle, latestLegend, setFilter, latestChart);
    const nPanel = el('div', 'panel');
    const nChart = chartDiv('n');
    nPanel.append(el('h3', null, 'Reports per window (n)'), nChart);
    const ePanel = el('div', 'panel');
    const eTitle = el('h3');
    const eChart = chartDiv('epsilon');
    ePanel.append(eTitle, eChart);
    if (w.chart === 'marginals') {
      // estimates beside n and ε; the small multiples below, full width
      const side = el('div', 'panel');
      side.append(nPanel, ePanel);
      latest.classList.add('full');
      grid.append(est, side, latest);
    } else {
      const pair = el('div', 'pair');
      pair.append(nPanel, ePanel);
      grid.append(est, latest, pair);
    }
    card.append(head, grid);
    return {
      card, h2, chips, kpis, estTitle, estLegend, estChart, pick, latestTitle, latestLegend, latestChart, setFilter,
      nChart, eTitle, eChart, chart: w.chart, labels: null, selected: null, key: 'w:' + w.workload + ':',
    };
  }

  /** Redraws a card's latest window now (after the reader changed a choice), from the data already fetched. */
  function redrawLatest(s, id) {
    const cur = state.data && state.data.workloads.find(x => x.workload === id);
    if (cur && cur.windows.length) drawLatest(s, cur, cur.windows[cur.windows.length - 1]);
  }

  function chip(text, cls) {
    return el('span', 'chip' + (cls ? ' ' + cls : ''), text);
  }
  function kpi(name, value, field, raw) {
    const k = el('div', 'kpi');
    const v = el('span', 'v', value);
    if (field) {
      v.dataset.field = field;
      v.dataset.value = String(raw);
    }
    k.append(el('span', 'k', name), v);
    return k;
  }

  function fillHead(s, w, d) {
    const latest = w.windows[w.windows.length - 1];
    s.h2.querySelector('.ver').textContent = 'v' + w.version;
    const central = w.mode === 'central';
    s.chips.replaceChildren(
      chip(w.mode || 'mode?', central ? 'central' : 'local'),
      chip(w.mechanism || 'mechanism?'),
      chip(`ε = ${fmtEps(latest.epsilon)} per ${central ? 'release' : 'report'}`),
      chip('δ = 0'),
      chip(`${isNum(w.confidence) ? Math.round(w.confidence * 100) : '?'}% bars`),
      chip(`${fmtDuration(w.windowMillis)} windows`));
    if (!central && latest.amplified) {
      s.chips.append(chip(`amplified central ε = ${fmtEps(latest.amplified.epsilon)}, δ = ${latest.amplified.delta.toExponential(0)}`
        + ' (against answer readers only)', 'amplified'));
    }
    if (w.stale) s.chips.append(chip(`no answer for ${fmtDuration(d.now - w.lastAnswerAt)}`, 'stale-badge'));
    s.kpis.replaceChildren(
      kpi('n, latest window', fmtInt(latest.n), 'n', latest.n),
      kpi('window', `${fmtTime(latest.start)}–${fmtTime(latest.end)}`, 'window', latest.start),
      central ? kpi('ε spent', fmtEps(latest.cumulativeEpsilon), 'epsilon', latest.cumulativeEpsilon)
        : kpi('ε per report', fmtEps(latest.epsilon), 'epsilon', latest.epsilon),
      kpi('last answer', `${fmtDuration(d.now - w.lastAnswerAt)} ago`, 'age', d.now - w.lastAnswerAt));
  }

  function buildPicker(s, w) {
    s.pick.replaceChildren();
    if (s.labels.length <= WIDE) {
      s.pick.hidden = true;
      return;
    }
    s.pick.hidden = false;
    const summary = el('summary');
    const list = el('div', 'pick-list');
    const update = () => {
      summary.textContent = `Showing ${s.selected.size} of ${s.labels.length} labels: choose…`;
    };
    for (const l of s.labels) {
      const lab = el('label');
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.checked = s.selected.has(l);
      box.addEventListener('change', () => {
        if (box.checked) s.selected.add(l); else s.selected.delete(l);
        update();
        if (state.data) {
          const cur = state.data.workloads.find(x => x.workload === w.workload);
          if (cur) drawEstimates(s, cur);
        }
      });
      lab.append(box, document.createTextNode(l));
      list.append(lab);
    }
    update();
    s.pick.append(summary, list);
  }

  // ---- estimates over time ------------------------------------------------------------------------
  function drawEstimates(s, w) {
    const wins = w.windows;
    const shown = s.labels.filter(l => s.selected.has(l));
    const many = shown.length;
    s.estTitle.replaceChildren(document.createTextNode(`Estimates over the last ${wins.length} windows `),
      el('small', null, `(line: estimate; band: ${isNum(w.confidence) ? Math.round(w.confidence * 100) : ''}% error bar)`));
    const xs = wins.map(v => v.start / 1000);
    const data = [xs];
    const series = [{}];
    const bands = [];
    shown.forEach((l, k) => {
      const c = color(k);
      data.push(wins.map(v => valueAt(v, 'estimates', l)));
      data.push(wins.map(v => valueAt(v, 'lower', l)));
      data.push(wins.map(v => valueAt(v, 'upper', l)));
      const base = series.length;
      series.push({ label: l, stroke: c, width: 2, points: { show: true, size: 4, fill: c, stroke: c } });
      series.push({ label: l + ' lower', stroke: 'transparent', width: 0, points: { show: false } });
      series.push({ label: l + ' upper', stroke: 'transparent', width: 0, points: { show: false } });
      bands.push({ series: [base + 2, base + 1], fill: rgba(c, bandAlpha() * Math.min(1, 2.5 / Math.max(1, shown.length))) });
    });
    const showValues = (i) => {
      const idx = i == null ? wins.length - 1 : i;
      const v = wins[idx];
      const items = shown.map((l, k) => legendItem(l, color(k),
        `${fmt(valueAt(v, 'estimates', l))} [${fmt(valueAt(v, 'lower', l))}, ${fmt(valueAt(v, 'upper', l))}]`));
      s.estLegend.replaceChildren(...items, el('span', 'when', `window ${fmtTime(v.start)}${i == null ? ' (latest)' : ''}`));
    };
    showValues(null);
    s.onEstimatesCursor = showValues;
    const u = upsert(s.key + 'estimates', s.estChart, 'est:' + shown.join('\u0001'), width => ({
      width, height: 260, legend: { show: false }, cursor: { points: { size: 6 }, focus: { prox: 24 } },
      focus: { alpha: 0.25 },
      scales: { x: timeScale(w.windowMillis / 2000), y: { range: yRange(true) } },
      axes: axes((u, vals) => vals.map(v => fmt(v, 2))),
      series, bands,
      hooks: { setCursor: [u => s.onEstimatesCursor(u.cursor.idx)] },
    }), data);
    s.estChart.dataset.points = String(xs.length);
    s.estChart.dataset.series = String(many);
    return u;
  }

  // ---- the latest window --------------------------------------------------------------------------
  function drawLatest(s, w, latest) {
    const conf = isNum(w.confidence) ? Math.round(w.confidence * 100) + '%' : '';
    const truth = Array.isArray(latest.truth);
    if (w.chart === 'cdf') {
      s.latestTitle.textContent = `Latest window: cumulative distribution with its ${conf} band`;
      drawCdf(s, latest, truth);
    } else if (w.chart === 'marginals') {
      s.latestTitle.textContent = `Latest window: marginal tables (${conf} error bars; one chart per attribute set, shared scale)`;
      s.latestLegend.replaceChildren();
      dropPlots(s.key + 'latest');
      drawMarginals(s, latest, truth);
    } else if (w.chart === 'ranges') {
      s.latestTitle.textContent = `Latest window: share in each bucket (the one-bucket ranges, ${conf} error bars)`;
      s.latestLegend.replaceChildren();
      dropPlots(s.key + 'latest');
      const idx = oneBucketRanges(latest.labels);
      drawColumns(s.latestChart, latest, idx.length ? idx : latest.labels.map((l, i) => i), truth);
    } else if (w.chart === 'mode') {
      s.latestTitle.textContent = 'Latest window: the most frequent label (pure ε-DP mode release)';
      s.latestLegend.replaceChildren();
      dropPlots(s.key + 'latest');
      drawMode(s.latestChart, latest, truth);
    } else if (w.chart === 'coefficients') {
      s.latestTitle.textContent = `Latest window: fitted coefficients θ with approximate ${conf} bars (from the`
        + ' private error estimate)';
      s.latestLegend.replaceChildren();
      dropPlots(s.key + 'latest');
      drawBars(s.latestChart, latest, truth);
      const sc = latest.scalars || {};
      const facts = [];
      if (isNum(sc.errorEstimate)) facts.push(`estimated ‖θ̂ − θ‖ ${fmt(sc.errorEstimate, 3)}`);
      if (isNum(sc.predictedExcessRisk)) facts.push(`predicted excess risk ${fmt(sc.predictedExcessRisk, 3)}`);
      if (facts.length) s.latestChart.append(el('p', 'note', facts.join(' · ')));
    } else if (w.chart === 'heavy-hitters') {
      const sc = latest.scalars || {};
      s.latestTitle.textContent = `Latest window: the strings found, most frequent first (share of reports, ${conf}`
        + ' error bars; dashed: the threshold share)';
      s.latestLegend.replaceChildren();
      dropPlots(s.key + 'latest');
      if (!latest.labels.length) {
        s.latestChart.replaceChildren(el('p', 'note', latest.n > 0
          ? `no string cleared the threshold share ${isNum(sc.thresholdShare) ? fmt(sc.thresholdShare, 3) : ''} in this window`
          : 'no reports in this window'));
        s.latestChart.dataset.points = '0';
        s.latestChart.dataset.threshold = isNum(sc.thresholdShare) ? String(sc.thresholdShare) : '';
      } else {
        drawBars(s.latestChart, latest, truth, { threshold: sc.thresholdShare });
      }
      const facts = [];
      if (isNum(sc.thresholdShare)) facts.push(`threshold share ${fmt(sc.thresholdShare, 3)}: a string well below it is found only by chance`);
      if (isNum(sc.itemsFound) && isNum(sc.itemsPublished) && sc.itemsFound > sc.itemsPublished) {
        facts.push(`${fmt(sc.itemsPublished, 0)} of ${fmt(sc.itemsFound, 0)} found strings published`);
      }
      if (facts.length) s.latestChart.append(el('p', 'note', facts.join(' · ')));
    } else if (w.chart === 'vector-mean') {
      const sc = latest.scalars || {};
      const bounds = isNum(sc.radius) ? [-sc.radius, sc.radius] : isNum(sc.lo) && isNum(sc.hi) ? [sc.lo, sc.hi] : null;
      s.latestTitle.textContent = `Latest window: the mean of each coordinate with its ${conf} error bar`
        + (bounds ? ` (on the declared ${isNum(sc.radius) ? 'ball' : 'box'})` : '');
      s.latestLegend.replaceChildren();
      dropPlots(s.key + 'latest');
      if (!(latest.n > 0)) {
        s.latestChart.replaceChildren(el('p', 'note', 'no reports in this window'));
        s.latestChart.dataset.points = '0';
      } else {
        drawBars(s.latestChart, latest, truth, { bounds });
      }
      const facts = [];
      if (isNum(sc.dimension)) facts.push(`${fmt(sc.dimension, 0)} coordinates`);
      if (isNum(sc.radius)) facts.push(`ball of radius ${fmt(sc.radius, 3)}: the published mean is projected into it`);
      if (isNum(sc.lo) && isNum(sc.hi)) facts.push(`box [${fmt(sc.lo, 3)}, ${fmt(sc.hi, 3)}] per coordinate`);
      if (isNum(sc.maxStandardError)) facts.push(`largest standard error ${fmt(sc.maxStandardError, 3)}`);
      if (facts.length) s.latestChart.append(el('p', 'note', facts.join(' · ')));
    } else if (w.chart === 'mean') {
      s.latestTitle.textContent = `Latest window: the mean with its ${conf} error bar (on the declared range)`;
      s.latestLegend.replaceChildren();
      dropPlots(s.key + 'latest');
      drawMean(s.latestChart, latest, truth);
    } else {
      s.latestTitle.textContent = `Latest window: estimates with ${conf} error bars`;
      s.latestLegend.replaceChildren();
      dropPlots(s.key + 'latest');
      drawBars(s.latestChart, latest, truth);
    }
  }

  /**
   * A mean (family mean): one horizontal line for the published mean with its error bar drawn as a band, and the
   * numbers; the history chart above shows the mean over time with its band like any other estimate.
   */
  function drawMean(container, v, truth) {
    const est = (v.estimates || [])[0];
    const lo = (v.lower || [])[0];
    const hi = (v.upper || [])[0];
    const box = el('div', 'mean');
    if (!isNum(est)) {
      box.append(el('p', 'note', 'no reports in this window'));
      container.replaceChildren(box);
      container.dataset.points = '0';
      return;
    }
    const span = isNum(lo) && isNum(hi) && hi > lo ? hi - lo : Math.abs(est) || 1;
    const from = (isNum(lo) ? lo : est) - span * 0.5;
    const to = (isNum(hi) ? hi : est) + span * 0.5;
    const pct = x => `${(100 * (x - from) / (to - from)).toFixed(2)}%`;
    const line = el('div', 'mean-line');
    line.style.position = 'relative';
    line.style.height = '28px';
    line.style.borderBottom = `1px solid ${cssVar('--grid')}`;
    const band = el('div', 'mean-band');
    Object.assign(band.style, { position: 'absolute', top: '8px', height: '12px', left: pct(isNum(lo) ? lo : est),
      width: `calc(${pct(isNum(hi) ? hi : est)} - ${pct(isNum(lo) ? lo : est)})`,
      background: rgba(cssVar('--accent') || '#3b6fd8', 0.3) });
    const mark = el('div', 'mean-mark');
    Object.assign(mark.style, { position: 'absolute', top: '2px', height: '24px', width: '2px', left: pct(est),
      background: cssVar('--accent') || '#3b6fd8' });
    line.append(band, mark);
    if (truth && isNum(v.truth[0])) {
      const t = el('div', 'mean-truth');
      Object.assign(t.style, { position: 'absolute', top: '0', height: '28px', width: '0', left: pct(v.truth[0]),
        borderLeft: `2px dashed ${cssVar('--bad')}` });
      line.append(t);
    }
    box.append(line);
    const facts = [`mean ${fmt(est, 3)}`];
    if (isNum(lo) && isNum(hi)) facts.push(`error bar [${fmt(lo, 3)}, ${fmt(hi, 3)}]`);
    const sc = v.scalars || {};
    if (isNum(sc.standardError)) facts.push(`standard error ${fmt(sc.standardError, 3)}`);
    if (truth && isNum(v.truth[0])) facts.push(`true mean (demo) ${fmt(v.truth[0], 3)}`);
    box.append(el('p', 'note', facts.join(' · ')));
    container.replaceChildren(box);
    container.dataset.points = '1';
  }

  /** A mode release: the released label (or none), whether it was stable, and the public conditions. */
  function drawMode(container, v, truth) {
    const sc = v.scalars || {};
    const released = Array.isArray(v.items) && v.items.length ? v.items[0] : null;
    const box = el('div', 'mode');
    box.append(el('p', 'mode-label', released ? released : 'no label released (the window was too close to call)'));
    const facts = [];
    if (isNum(sc.gapForConfidence) && sc.gapForConfidence >= 0) {
      facts.push(`the true mode is released with probability ≥ ${Math.round((v.confidence || 0.95) * 100)}% when it`
        + ` leads the runner-up by ${fmt(sc.gapForConfidence, 0)} reports or more`);
    }
    if (isNum(sc.keepProbability)) facts.push(`purification keeps the choice with probability ≥ ${fmt(sc.keepProbability, 3)}`);
    if (truth) {
      let best = 0;
      v.truth.forEach((t, i) => { if (isNum(t) && t > v.truth[best]) best = i; });
      facts.push(`true mode (demo): ${v.labels[best]}`);
    }
    box.append(el('p', 'note', facts.join(' · ')));
    container.replaceChildren(box);
    container.dataset.points = released ? '1' : '0';
  }

  function drawCdf(s, v, truth) {
    const pts = v.labels.map((l, i) => [Number(String(l).replace(/^<\s*/, '')), i]).filter(p => isNum(p[0]))
      .sort((a, b) => a[0] - b[0]);
    const xs = pts.map(p => p[0]);
    const logX = xs.length > 1 && xs.every(x => x > 0);
    const pick = key => pts.map(([, i]) => (v[key] && isNum(v[key][i]) ? v[key][i] : null));
    const accent = cssVar('--accent') || '#3b6fd8';
    const data = [xs, pick('estimates'), pick('lower'), pick('upper')];
    const series = [{},
      { label: 'P(value < t)', stroke: accent, width: 2, points: { show: true, size: 5, fill: accent } },
      { label: 'lower', stroke: 'transparent', width: 0, points: { show: false } },
      { label: 'upper', stroke: 'transparent', width: 0, points: { show: false } }];
    if (truth) {
      data.push(pts.map(([, i]) => (isNum(v.truth[i]) ? v.truth[i] : null)));
      series.push({ label: 'true', stroke: cssVar('--bad'), width: 1.5, dash: [5, 4], points: { show: false } });
    }
    const show = (i) => {
      const items = [legendItem('estimate', accent, i == null ? '' : fmt(data[1][i])),
        legendItem('error band', rgba(accent, 0.35), i == null ? '' : `[${fmt(data[2][i])}, ${fmt(data[3][i])}]`)];
      if (truth) items.push(legendItem('true (demo)', cssVar('--bad'), i == null ? '' : fmt(data[4][i]), true));
      const when = i == null ? `window ${fmtTime(v.start)}–${fmtTime(v.end)}` : `P(value < ${xs[i]})`;
      s.latestLegend.replaceChildren(...items, el('span', 'when', when));
    };
    show(null);
    s.onLatestCursor = show;
    upsert(s.key + 'latest', s.latestChart, 'cdf:' + xs.join(',') + ':' + truth, width => ({
      width, height: 260, legend: { show: false },
      scales: { x: { time: false, distr: logX ? 3 : 1, range: (u, lo, hi) => [lo, hi] }, y: { range: [0, 1] } },
      axes: axes((u, vals) => vals.map(x => fmt(x, 1)), { values: (u, vals) => vals.map(x => (x == null ? '' : fmtCompact(x))) }),
      series, bands: [{ series: [3, 2], fill: rgba(accent, bandAlpha() + 0.06) }],
      hooks: { setCursor: [u => s.onLatestCursor(u.cursor.idx)] },
    }), data);
    s.latestChart.dataset.points = String(xs.length);
  }

  /**
   * Horizontal bars with error whiskers (histograms, point queries; heavy hitters, already ranked; vector means, one
   * bar per coordinate). With {@code opts.threshold} a number, a dashed vertical line marks it (the heavy hitters'
   * threshold share); with {@code opts.bounds} = [lo, hi] the scale spans them (a vector mean's declared bounds).
   */
  function drawBars(container, v, truth, opts) {
    const threshold = opts && isNum(opts.threshold) && opts.threshold < 1 ? opts.threshold : null;
    const bounds = opts && Array.isArray(opts.bounds) && opts.bounds.every(isNum) ? opts.bounds : null;
    let idx = v.labels.map((l, i) => i);
    let note = null;
    if (idx.length > BARS_MAX) {
      idx.sort((a, b) => (v.estimates[b] ?? -Infinity) - (v.estimates[a] ?? -Infinity));
      idx = idx.slice(0, BARS_MAX);
      note = `the ${BARS_MAX} largest of ${v.labels.length}`;
    }
    const width = widthOf(container);
    const rowH = 24;
    const labelW = Math.min(150, 16 + 7 * Math.max(...idx.map(i => String(v.labels[i]).length)));
    const valueW = 52;
    const plotW = Math.max(60, width - labelW - valueW - 8);
    const vals = idx.flatMap(i => [v.estimates[i], v.lower[i], v.upper[i], truth ? v.truth[i] : null]).filter(isNum);
    if (threshold !== null) vals.push(threshold);
    if (bounds !== null) vals.push(...bounds); // vector means: the scale spans the declared per-coordinate bounds
    const scale = niceTicks(Math.min(0, ...vals), Math.max(1e-9, ...vals), 4);
    const lo = scale.lo;
    const hi = scale.hi;
    const X = x => labelW + ((x - lo) / (hi - lo)) * plotW;
    const height = idx.length * rowH + 24;
    const svg = svgEl('svg', { class: 'bars', width, height, viewBox: `0 0 ${width} ${height}`, role: 'img' });
    const accent = cssVar('--accent');
    const fg = cssVar('--fg');
    idx.forEach((i, r) => {
      const y = r * rowH + 4;
      const g = svgEl('g');
      g.append(svgEl('title', {}, `${v.labels[i]}: ${fmt(v.estimates[i], 4)} [${fmt(v.lower[i], 4)}, ${fmt(v.upper[i], 4)}]`
        + (truth ? ` · true ${fmt(v.truth[i], 4)}` : '')));
      g.append(svgEl('text', { x: labelW - 8, y: y + 13, 'text-anchor': 'end' }, String(v.labels[i])));
      g.append(svgEl('rect', { class: 'track', x: labelW, y: y + 2, width: plotW, height: 14, rx: 3 }));
      if (isNum(v.estimates[i])) {
        g.append(svgEl('rect', { x: X(Math.min(0, v.estimates[i])), y: y + 4, width: Math.max(1, Math.abs(X(v.estimates[i]) - X(0))),
          height: 10, rx: 2, fill: accent, 'fill-opacity': 0.75 }));
      }
      if (isNum(v.lower[i]) && isNum(v.upper[i])) {
        const yy = y + 9;
        g.append(svgEl('line', { x1: X(v.lower[i]), x2: X(v.upper[i]), y1: yy, y2: yy, stroke: fg, 'stroke-width': 1.5 }));
        for (const e of [v.lower[i], v.upper[i]]) {
          g.append(svgEl('line', { x1: X(e), x2: X(e), y1: yy - 5, y2: yy + 5, stroke: fg, 'stroke-width': 1.5 }));
        }
      }
      if (truth && isNum(v.truth[i])) {
        g.append(svgEl('rect', { x: X(v.truth[i]) - 1.5, y: y, width: 3, height: 18, fill: cssVar('--bad') }));
      }
      g.append(svgEl('text', { class: 'val', x: width - 4, y: y + 13, 'text-anchor': 'end' }, fmt(v.estimates[i])));
      svg.append(g);
    });
    const axisY = idx.length * rowH + 8;
    if (threshold !== null) {
      const tl = svgEl('line', { class: 'threshold', x1: X(threshold), x2: X(threshold), y1: 0, y2: axisY,
        stroke: cssVar('--fg'), 'stroke-width': 1.2, 'stroke-dasharray': '4 3' });
      tl.append(svgEl('title', {}, `threshold share ${fmt(threshold, 4)}`));
      svg.append(tl);
    }
    svg.append(svgEl('line', { class: 'axis', x1: labelW, x2: labelW + plotW, y1: axisY, y2: axisY }));
    for (const t of scale.ticks) {
      svg.append(svgEl('line', { class: 'axis', x1: X(t), x2: X(t), y1: axisY, y2: axisY + 3 }));
      svg.append(svgEl('text', { x: X(t), y: axisY + 14, 'text-anchor': 'middle' }, fmt(t, scale.digits)));
    }
    container.replaceChildren(svg);
    if (note) container.append(el('p', 'note', note + (truth ? '; red: the true value (demo)' : '')));
    else if (truth) container.append(el('p', 'note', 'Red: the true value the simulator sent (demo only).'));
    container.dataset.points = String(idx.length);
    container.dataset.threshold = threshold === null ? '' : String(threshold);
  }

  /** Vertical bars with whiskers, one per given label index, on a shared scale. */
  function columns(v, idx, width, height, yTop, tickOf, title, truth) {
    const svg = svgEl('svg', { class: 'mini', width, height, viewBox: `0 0 ${width} ${height}`, role: 'img' });
    const top = title ? 22 : 8;
    const bottom = 18;
    const left = 34;
    const plotW = width - left - 4;
    const plotH = height - top - bottom;
    const scale = niceTicks(0, yTop, 3);
    const yMax = scale.hi;
    const Y = y => top + plotH - (Math.max(0, Math.min(yMax, y)) / yMax) * plotH;
    const accent = cssVar('--accent');
    const fg = cssVar('--fg');
    if (title) {
      const room = Math.floor((width - 8) / 6.6);
      const t = svgEl('text', { class: 'title', x: 4, y: 13 }, title.length > room ? title.slice(0, room - 1) + '…' : title);
      t.append(svgEl('title', {}, title));
      svg.append(t);
    }
    for (const t of scale.ticks) {
      svg.append(svgEl('line', { class: 'axis', x1: left, x2: left + plotW, y1: Y(t), y2: Y(t), 'stroke-dasharray': t ? '2 3' : '' }));
      svg.append(svgEl('text', { x: left - 4, y: Y(t) + 4, 'text-anchor': 'end' }, fmt(t, scale.digits)));
    }
    const slot = plotW / idx.length;
    const barW = Math.max(3, Math.min(28, slot * 0.62));
    idx.forEach((i, k) => {
      const cx = left + slot * (k + 0.5);
      const g = svgEl('g');
      g.append(svgEl('title', {}, `${v.labels[i]}: ${fmt(v.estimates[i], 4)} [${fmt(v.lower[i], 4)}, ${fmt(v.upper[i], 4)}]`
        + (truth && isNum(v.truth[i]) ? ` · true ${fmt(v.truth[i], 4)}` : '')));
      if (isNum(v.estimates[i])) {
        g.append(svgEl('rect', { x: cx - barW / 2, y: Y(v.estimates[i]), width: barW, height: Math.max(0.5, Y(0) - Y(v.estimates[i])),
          rx: 2, fill: accent, 'fill-opacity': 0.75 }));
      }
      if (isNum(v.lower[i]) && isNum(v.upper[i])) {
        g.append(svgEl('line', { x1: cx, x2: cx, y1: Y(v.lower[i]), y2: Y(v.upper[i]), stroke: fg, 'stroke-width': 1.3 }));
        for (const e of [v.lower[i], v.upper[i]]) {
          g.append(svgEl('line', { x1: cx - 4, x2: cx + 4, y1: Y(e), y2: Y(e), stroke: fg, 'stroke-width': 1.3 }));
        }
      }
      if (truth && isNum(v.truth[i])) {
        g.append(svgEl('rect', { x: cx - barW / 2 - 2, y: Y(v.truth[i]) - 1.5, width: barW + 4, height: 3, fill: cssVar('--bad') }));
      }
      const tick = tickOf(i, k);
      if (tick !== null) g.append(svgEl('text', { class: 'tick', x: cx, y: height - 5, 'text-anchor': 'middle' }, tick));
      svg.append(g);
    });
    return svg;
  }

  function drawColumns(container, v, idx, truth) {
    const vals = idx.flatMap(i => [v.upper[i], v.estimates[i], truth ? v.truth[i] : null]).filter(isNum);
    const yMax = Math.max(1e-9, ...vals);
    const width = widthOf(container);
    const every = Math.ceil(idx.length / Math.max(1, Math.floor(width / 44)));
    const svg = columns(v, idx, width, 240, yMax, (i, k) => {
      const p = parseInterval(v.labels[i]);
      if (k % every) return null;
      return p ? fmtCompact(p[0]) : String(v.labels[i]).slice(0, 6);
    }, null, truth);
    container.replaceChildren(svg, el('p', 'note', 'Ticks mark each bucket\'s lower edge; hover a bar for its range and interval.'
      + (truth ? ' Red: the true value (demo).' : '')));
    container.dataset.points = String(idx.length);
  }

  /** The most attribute sets drawn as small multiples (a wide workload has thousands). */
  const MAX_MULTIPLES = 24;

  /** Marginal tables: labels "a=0,b=1,c=1" grouped by attribute set, one small chart each. */
  function drawMarginals(s, v, truth) {
    const groups = new Map();
    v.labels.forEach((l, i) => {
      const parts = String(l).split(',').map(p => p.split('='));
      const key = parts.map(p => p[0]).join(' × ');
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push([i, parts.map(p => p[1]).join('')]);
    });
    const vals = v.labels.flatMap((l, i) => [v.upper[i], v.estimates[i], truth ? v.truth[i] : null]).filter(isNum);
    const yMax = Math.max(1e-9, ...vals);
    const box = el('div', 'multiples');
    const width = widthOf(s.latestChart);
    const cols = Math.max(1, Math.floor((width + 18) / 268));
    const cellW = Math.floor((width - 18 * (cols - 1)) / cols);
    // wide workloads (thousands of attribute sets): the sets whose attributes match every word of the filter
    const wide = groups.size > MAX_MULTIPLES;
    s.setFilter.hidden = !wide;
    const words = wide ? s.setFilter.value.toLowerCase().split(/[\s,×]+/).filter(Boolean) : [];
    const matching = [...groups].filter(([key]) => {
      const attrs = key.toLowerCase().split(' × ');
      return words.every(word => attrs.some(a => a.includes(word)));
    });
    for (const [key, cells] of matching.slice(0, MAX_MULTIPLES)) {
      const ticks = new Map(cells.map(([i, bits]) => [i, bits]));
      box.append(columns(v, cells.map(c => c[0]), cellW, 150, yMax, i => ticks.get(i), key, truth));
    }
    const which = words.length ? ` matching “${words.join(' ')}”` : '';
    const more = !wide ? ''
      : matching.length === 0 ? ` No attribute set of ${fmtInt(groups.size)} matches “${words.join(' ')}”.`
      : ` Showing ${matching.length > MAX_MULTIPLES ? 'the first ' : ''}${Math.min(matching.length, MAX_MULTIPLES)} of`
        + ` ${fmtInt(matching.length)} attribute sets${which}${words.length ? ` (${fmtInt(groups.size)} in all)` : ''};`
        + ' type attribute names above to choose others. Every answer is on the answers topic and in /api/answers.';
    s.latestChart.replaceChildren(box, el('p', 'note', 'Each chart is one attribute set; ticks give the attribute values'
      + ' in the title\'s order (1 = on). Hover a bar for its exact label and interval.' + (truth ? ' Red: the true value (demo).' : '')
      + more));
    s.latestChart.dataset.shownMultiples = String(Math.min(matching.length, MAX_MULTIPLES));
    s.latestChart.dataset.matchingMultiples = String(matching.length);
    s.latestChart.dataset.points = String(v.labels.length);
    s.latestChart.dataset.multiples = String(groups.size);
  }

  // ---- n and ε per window -------------------------------------------------------------------------
  function drawN(s, w) {
    const xs = w.windows.map(v => v.start / 1000);
    const ns = w.windows.map(v => (isNum(v.n) && v.n >= 0 ? v.n : null));
    const accent = cssVar('--accent');
    upsert(s.key + 'n', s.nChart, 'n', width => ({
      width, height: 150, legend: { show: false },
      scales: { x: timeScale(w.windowMillis / 2000), y: { range: (u, lo, hi) => [0, (hi || 1) * 1.1] } },
      axes: axes((u, vals) => vals.map(fmtCompact)),
      series: [{}, { label: 'n', stroke: accent, fill: rgba(accent, 0.45), width: 1,
        paths: uPlot.paths.bars({ size: [0.7, 24] }), points: { show: false } }],
    }), [xs, ns]);
    s.nChart.dataset.points = String(xs.length);
  }

  function drawEpsilon(s, w) {
    const central = w.mode === 'central';
    s.eTitle.textContent = central ? 'ε spent on this workload (cumulative, all releases so far)'
      : 'ε per report (each device is charged this against its own budget)';
    const xs = w.windows.map(v => v.start / 1000);
    const ys = w.windows.map(v => {
      const e = central ? v.cumulativeEpsilon : v.epsilon;
      return isNum(e) ? e : null;
    });
    const c = central ? '#9b59b6' : cssVar('--accent');
    upsert(s.key + 'epsilon', s.eChart, 'eps:' + central, width => ({
      width, height: 150, legend: { show: false },
      scales: { x: timeScale(w.windowMillis / 2000), y: { range: (u, lo, hi) => [0, Math.max(1, (hi || 1) * 1.25)] } },
      axes: axes((u, vals) => vals.map(x => fmtEps(x))),
      series: [{}, { label: 'ε', stroke: c, width: 2, fill: central ? rgba(c, 0.12) : undefined,
        paths: uPlot.paths.stepped({ align: 1 }), points: { show: xs.length < 30, size: 4, fill: c } }],
    }), [xs, ys]);
    s.eChart.dataset.points = String(xs.length);
  }

  // ---- overview and rejections --------------------------------------------------------------------
  /** Rejections per minute at each sample: the increase over the samples of the minute before it. */
  function rejectionRates(R) {
    const samples = R.samples || [];
    const xs = [];
    const rates = R.reasons.map(() => []);
    let j = 0;
    for (let k = 1; k < samples.length; k++) {
      const b = samples[k];
      while (j < k - 1 && samples[j + 1].at <= b.at - 60000) j++;
      const a = samples[j];
      const minutes = (b.at - a.at) / 60000;
      xs.push(b.at / 1000);
      R.reasons.forEach((r, i) => {
        const d = (b.totals[r] || 0) - (a.totals[r] || 0);
        rates[i].push(minutes > 0 && d >= 0 ? d / minutes : null);
      });
    }
    return { xs, rates };
  }

  function renderOverview(d) {
    const box = document.getElementById('overview');
    const tiles = d.workloads.map(w => {
      const v = w.windows[w.windows.length - 1];
      const t = el('a', 'tile');
      t.href = '#w-' + w.workload.replace(/[^A-Za-z0-9_-]/g, '_');
      const name = el('div', 'name');
      const dot = el('span', 'dot' + (w.stale ? ' stale' : ''));
      name.append(dot, document.createTextNode(w.workload));
      t.append(name, el('div', 'big', fmtInt(v.n)),
        el('div', 'small', `reports in the window ${fmtTime(v.start)}–${fmtTime(v.end)} · ${w.mode}`));
      return t;
    });
    const R = d.rejections;
    const last = R.samples.length ? R.samples[R.samples.length - 1].totals : {};
    const total = Object.values(last).reduce((a, b) => a + b, 0);
    const rt = el('a', 'tile');
    rt.href = '#rejections-card';
    rt.append(el('div', 'name', 'Rejected reports'), el('div', 'big', fmtInt(total)),
      el('div', 'small', `since start · ${R.reasons.length} reason${R.reasons.length === 1 ? '' : 's'}`));
    box.replaceChildren(...tiles, rt);
  }

  function renderRejections(d) {
    const card = document.getElementById('rejections-card');
    card.hidden = false;
    const R = d.rejections;
    const legend = card.querySelector('[data-legend=rejections]');
    const chart = card.querySelector('[data-chart=rejections]');
    const skipped = document.getElementById('skipped');
    const skippedTotal = Object.values(d.skippedRecords || {}).reduce((a, b) => a + b, 0);
    skipped.hidden = skippedTotal === 0;
    skipped.textContent = `${fmtInt(skippedTotal)} answers-topic record${skippedTotal === 1 ? '' : 's'} could not be read: `
      + Object.entries(d.skippedRecords || {}).map(([k, v]) => `${k} ${v}`).join(', ');
    const { xs, rates } = rejectionRates(R);
    const last = R.samples.length ? R.samples[R.samples.length - 1].totals : {};
    legend.replaceChildren(...R.reasons.map((r, j) => legendItem(r, color(j), `${fmtInt(last[r] || 0)} total`)));
    if (!R.reasons.length || xs.length < 1) {
      if (state.plots.rejections) { state.plots.rejections.u.destroy(); delete state.plots.rejections; }
      chart.replaceChildren(el('p', 'note', R.reasons.length ? 'Collecting samples…' : 'No report has been rejected.'));
      chart.dataset.points = '0';
      return;
    }
    upsert('rejections', chart, 'rej:' + R.reasons.join(','), width => ({
      width, height: 220, legend: { show: false },
      scales: { x: { time: true }, y: { range: (u, lo, hi) => [0, Math.max(1, (hi || 1) * 1.1)] } },
      axes: axes((u, vals) => vals.map(fmtCompact)),
      cursor: { focus: { prox: 24 } }, focus: { alpha: 0.3 },
      series: [{}, ...R.reasons.map((r, j) => ({ label: r, stroke: color(j), width: 2, points: { show: false } }))],
    }), [xs, ...rates]);
    chart.dataset.points = String(xs.length);
    chart.dataset.series = String(R.reasons.length);
  }

  // ---- status and banner --------------------------------------------------------------------------
  function showStatus() {
    const pill = document.getElementById('status-pill');
    const banner = document.getElementById('banner');
    const title = document.getElementById('banner-title');
    const text = document.getElementById('banner-text');
    const d = state.data;
    if (state.failing) {
      pill.className = 'pill offline';
      pill.textContent = 'API not answering';
      banner.className = 'banner offline';
      banner.dataset.kind = 'offline';
      title.textContent = 'The dashboard API is not answering.';
      text.textContent = d ? `The last data received is from ${fmtTime(d.now)} (server time); the charts below may be out of date.`
        : 'No data has been received yet.';
      banner.hidden = false;
      return;
    }
    document.getElementById('updated').textContent = d ? `updated ${fmtTime(d.now)}` : '';
    const stale = d ? d.workloads.filter(w => w.stale) : [];
    if (stale.length) {
      pill.className = 'pill stale';
      pill.textContent = 'stale';
      banner.className = 'banner stale';
      banner.dataset.kind = 'stale';
      title.textContent = stale.length === d.workloads.length ? 'No new answers: the data shown is stale.'
        : 'Some workloads have stopped answering.';
      const groups = new Map();
      for (const w of stale) {
        const key = `last answer ${fmtDuration(d.now - w.lastAnswerAt)} ago (a window closes every ${fmtDuration(w.windowMillis)})`;
        if (!groups.has(key)) groups.set(key, []);
        groups.get(key).push(w.workload);
      }
      text.textContent = [...groups].map(([key, ids]) => `${ids.join(', ')}: ${key}`).join('; ')
        + '. The gateway, the broker or the answers reader may have stopped.';
      banner.hidden = false;
      return;
    }
    pill.className = d && d.workloads.length ? 'pill live' : 'pill';
    pill.textContent = d && d.workloads.length ? 'live' : 'waiting for answers';
    banner.hidden = true;
    banner.dataset.kind = '';
  }

  // ---- the main loop ------------------------------------------------------------------------------
  function render(d) {
    state.data = d;
    document.getElementById('empty').hidden = d.workloads.length > 0;
    renderOverview(d);
    const container = document.getElementById('workloads');
    const seen = new Set();
    for (const w of d.workloads) {
      if (!w.windows || !w.windows.length) continue;
      seen.add(w.workload);
      let s = state.cards.get(w.workload);
      if (s && s.chart !== w.chart) {
        dropPlots(s.key);
        s.card.remove();
        s = null;
      }
      if (!s) {
        s = createCard(w);
        state.cards.set(w.workload, s);
        const card = s;
        s.setFilter.addEventListener('input', () => redrawLatest(card, w.workload));
      }
      if (s.card.parentNode !== container || container.children[seen.size - 1] !== s.card) {
        container.insertBefore(s.card, container.children[seen.size - 1] || null);
      }
      const latest = w.windows[w.windows.length - 1];
      if (!s.labels || s.labels.join('\u0001') !== latest.labels.join('\u0001')) {
        s.labels = latest.labels.slice();
        s.selected = defaultSelection(w.chart, latest);
        buildPicker(s, w);
      }
      fillHead(s, w, d);
      drawEstimates(s, w);
      drawLatest(s, w, latest);
      drawN(s, w);
      drawEpsilon(s, w);
    }
    for (const [id, s] of state.cards) {
      if (!seen.has(id)) {
        dropPlots(s.key);
        s.card.remove();
        state.cards.delete(id);
      }
    }
    renderRejections(d);
    showStatus();
    state.renders++;
    document.body.dataset.renders = String(state.renders);
  }

  async function poll() {
    const ctl = new AbortController();
    const timer = setTimeout(() => ctl.abort(), FETCH_TIMEOUT_MS);
    try {
      const r = await fetch('/api/history', { cache: 'no-store', signal: ctl.signal });
      if (!r.ok) throw new Error('HTTP ' + r.status);
      const d = await r.json();
      state.failing = false;
      render(d);
    } catch (e) {
      state.failing = true;
      showStatus();
      document.body.dataset.failures = String((Number(document.body.dataset.failures) || 0) + 1);
    } finally {
      clearTimeout(timer);
      setTimeout(poll, POLL_MS);
    }
  }

  function applyTheme(t) {
    if (t) document.documentElement.dataset.theme = t;
    else delete document.documentElement.dataset.theme;
  }

  function start() {
    let stored = null;
    try { stored = localStorage.getItem('pgw-theme'); } catch (e) { /* storage may be off */ }
    applyTheme(stored);
    document.getElementById('theme').addEventListener('click', () => {
      const dark = getComputedStyle(document.documentElement).getPropertyValue('color-scheme').trim() === 'dark';
      const next = dark ? 'light' : 'dark';
      applyTheme(next);
      try { localStorage.setItem('pgw-theme', next); } catch (e) { /* ignore */ }
      state.themeGen++;
      if (state.data) render(state.data);
    });
    let resizeTimer = null;
    window.addEventListener('resize', () => {
      clearTimeout(resizeTimer);
      resizeTimer = setTimeout(() => { state.themeGen++; if (state.data) render(state.data); }, 150);
    });
    if (typeof uPlot === 'undefined') {
      document.getElementById('empty').textContent = 'The charting library could not be loaded from this server.';
      return;
    }
    poll();
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
