// baton view: draws the frame embedded in #baton-data on one canvas. Everything is laid out once per
// API or filter change (arrays of items sorted by x) and drawn lazily: each frame draws only what
// falls inside the viewport, found by binary search, so 10,000 passes stay responsive. The same
// arrays answer hit-testing for the tooltip and the counts in window.batonView.
(function () {
  'use strict';
  var t0 = performance.now();
  var data = JSON.parse(document.getElementById('baton-data').textContent);
  var tParsed = performance.now();

  var AXIS_H = 20, LANE_H = 30, SECTION_H = 20, RES_H = 18, MEM_H = 180, LABEL_W = 190;
  var MIN_ZOOM = 0.02, MAX_ZOOM = 160, MARK = 5, DUP_DX = 7;
  var API_NAMES = { 'd3d12': 'D3D12 enhanced', 'd3d12-legacy': 'D3D12 legacy', 'vulkan': 'Vulkan sync2' };

  var canvas = document.getElementById('frame');
  var ctx = canvas.getContext('2d');
  var stage = document.getElementById('stage');
  var tip = document.getElementById('tooltip');

  // ---------------------------------------------------------------------------------------------
  // Static facts of the frame.
  var queues = data.queues;
  var passes = data.passes.map(function (p, i) {
    return { i: i, name: p.name, group: p.group, queue: p.queue, slot: p.slot, ops: Math.max(1, p.ops), lane: queues.indexOf(p.queue) };
  });
  var nslots = 1;
  passes.forEach(function (p) { nslots = Math.max(nslots, p.slot + 1); });
  var resources = data.resources;
  var usesOf = passes.map(function () { return []; });
  data.uses.forEach(function (u) { usesOf[u[0]].push(u); });
  var heap = data.memory.heap_size || 0;
  data.memory.blocks.forEach(function (b) { heap = Math.max(heap, b.offset + b.size); });
  var hasMemory = data.kind === 'graph' && data.memory.blocks.length > 0;

  // Measured times (baton view --timestamps): the x axis becomes GPU time. One x unit is the frame's
  // time divided by its slots, so zoom and fit behave as in submission order; passes, barrier points,
  // waits and heap blocks are placed at their operations' measured begin and end.
  var T = null;
  if (data.times) {
    var opT = passes.map(function () { return []; }), tEnd = 0;
    data.times.ops.forEach(function (o) { opT[o[0]][o[1]] = [o[2], o[3]]; tEnd = Math.max(tEnd, o[3]); });
    var unit = tEnd > 0 ? tEnd / nslots : 1;
    var passT = opT.map(function (ops) {
      var b = Infinity, e = 0;
      ops.forEach(function (x) { b = Math.min(b, x[0]); e = Math.max(e, x[1]); });
      return b === Infinity ? [0, 0] : [b / unit, e / unit];
    });
    var slotT = [];
    passes.forEach(function (p) {
      var st = slotT[p.slot] || [Infinity, 0];
      slotT[p.slot] = [Math.min(st[0], passT[p.i][0]), Math.max(st[1], passT[p.i][1])];
    });
    T = { unit: unit, op: opT, pass: passT, slot: slotT, end: tEnd / unit, source: data.times.source };
  }
  var xEnd = T ? Math.max(T.end, 1e-9) : nslots;
  function passX0(p) { return T ? T.pass[p.i][0] : p.slot + 0.08; }
  function passX1(p) { return T ? T.pass[p.i][1] : p.slot + 0.92; }
  function slotX0(s) { return T ? (T.slot[s] || [s, s])[0] : s; }
  function slotX1(s) { return T ? (T.slot[s] || [s, s])[1] : s + 1; }
  function us(x) { return (x * (T ? T.unit : 1)).toFixed(1) + ' us'; }

  var S = { api: data.api in data.lowerings ? data.api : 'd3d12', zoom: 8, sx: 0, sy: 0, passFilter: '', resFilter: '',
            expanded: new Set() };  // resources shown with per-range sub-lanes
  var L = null;         // the current layout
  var segCache = {};    // per API: per resource, state segments
  var drawn = { passes: 0, markers: 0, waits: 0, blocks: 0, rows: 0 };
  var dirty = false, hover = null;

  // ---------------------------------------------------------------------------------------------
  // Helpers.
  function lower(s) { return s.toLowerCase(); }
  function matches(name, filter) {
    if (!filter) return true;
    var n = lower(name);
    return filter.split(',').some(function (f) { f = f.trim(); return f !== '' && n.indexOf(f) >= 0; });
  }
  // The last word of an API state is its layout (textures) or its access (buffers, legacy states):
  // what a lane label needs; the tooltip shows the whole state.
  // D3D12 enhanced names carry their kind as a prefix (LAYOUT_, ACCESS_); the lane drops it.
  function shortState(s) { var w = s.split(' '); return w[w.length - 1].replace(/^(LAYOUT|ACCESS)_/, ''); }
  function hue(s) {
    var h = 0;
    for (var i = 0; i < s.length; ++i) h = (h * 31 + s.charCodeAt(i)) >>> 0;
    return h % 360;
  }
  var colors = new Map();
  function colorOf(s) {
    var c = colors.get(s);
    if (!c) { c = 'hsl(' + hue(s) + ',55%,82%)'; colors.set(s, c); }
    return c;
  }
  function mib(b) { return (b / (1024 * 1024)).toFixed(2) + ' MiB'; }
  // First index in arr (sorted by key) whose key(item) >= v.
  function lowerBound(arr, v, key) {
    var lo = 0, hi = arr.length;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (key(arr[mid]) < v) lo = mid + 1; else hi = mid; }
    return lo;
  }
  function barrierX(b) {
    var p = passes[b.pass];
    if (T) {
      var o = T.op[p.i][Math.min(b.op, p.ops - 1)];
      return o ? (b.where === 'after' ? o[1] : o[0]) / T.unit : passX0(p);
    }
    var frac = (b.op + (b.where === 'after' ? 1 : 0)) / p.ops;
    return p.slot + 0.08 + 0.84 * Math.min(1, frac);
  }

  // The barriers of one API as objects, decoded from the compact rows of the page's JSON (texts are
  // indices into data.strings, reasons into data.reasons) the first time the API is shown.
  var decoded = {};
  function lowering(apiName) {
    if (decoded[apiName]) return decoded[apiName];
    var raw = data.lowerings[apiName], str = data.strings, why = data.reasons;
    decoded[apiName] = {
      error: raw.error, issued: raw.issued, calls: raw.calls,
      barriers: raw.barriers.map(function (a) {
        return { pass: a[0], op: a[1], where: a[2] ? 'after' : 'before', resource: a[3], range: str[a[4]],
                 before: str[a[5]], after: str[a[6]], reason: why[a[7]].name, rule: why[a[7]].rule,
                 note: str[a[8]], omitted: str[a[9]] };
      })
    };
    return decoded[apiName];
  }

  function segment(x0, x1, state, range) {
    var label = shortState(state);
    return { x0: x0, x1: x1, state: state, range: range, label: label, color: colorOf(label) };
  }

  // Per resource, its state over the frame under one API: segments [x0, x1) labelled with the state
  // the barriers leave it in (before the first barrier: that barrier's before-state).
  // A transient's lane ends with its lifetime (its heap block's first and last slot), so memory
  // freed and reused by another resource shows as a gap.
  function lifetime(r, list) {
    var blk = resources[r].transient ? blockByName[resources[r].name] : null;
    if (!blk) return list;
    var a = slotX0(blk.first), z = slotX1(blk.last);
    return list.filter(function (sg) { return sg.x1 > a && sg.x0 < z; }).map(function (sg) {
      return Object.assign({}, sg, { x0: Math.max(sg.x0, a), x1: Math.min(sg.x1, z) });
    });
  }

  // A lane's segments from its barriers ({x, b, i}): [x0, x1) in the state each barrier leaves (before
  // the first: its before-state), to the frame's end and then cut to the resource's lifetime;
  // `label(e)` is the range shown on the segment that barrier e ends (the last: its own).
  function laneSegments(r, list, label) {
    list.sort(function (a, c) { return a.x - c.x || a.i - c.i; });
    var out = [];
    if (list.length === 0) return out;
    var x = 0, state = list[0].b.before;
    list.forEach(function (e) {
      if (e.x > x) out.push(segment(x, e.x, state, label(e)));
      x = e.x; state = e.b.after;
    });
    out.push(segment(x, xEnd, state, label(list[list.length - 1])));
    return lifetime(r, out);
  }

  // Sub-lanes (a resource's label clicked): its state per range its barriers name, from the barriers
  // on that range and those on the whole resource.
  function subSegments(api, r, range) {
    var key = api + ':' + r + ':' + range;
    if (segCache[key]) return segCache[key];
    var list = [];
    lowering(api).barriers.forEach(function (b, i) {
      if (b.resource === r && (b.range === range || b.range === 'all')) list.push({ x: barrierX(b), b: b, i: i });
    });
    var out = laneSegments(r, list, function () { return range; });
    segCache[key] = out;
    return out;
  }
  // The ranges a resource's barriers name other than the whole resource, in order of first barrier.
  function subRanges(api, r) {
    var seen = [], set = new Set();
    lowering(api).barriers.forEach(function (b) {
      if (b.resource === r && b.range !== 'all' && !set.has(b.range)) { set.add(b.range); seen.push(b.range); }
    });
    return seen;
  }

  function segmentsFor(api) {
    if (segCache[api]) return segCache[api];
    var per = resources.map(function () { return []; });
    lowering(api).barriers.forEach(function (b, i) { per[b.resource].push({ x: barrierX(b), b: b, i: i }); });
    var segs = per.map(function (list, r) { return laneSegments(r, list, function (e) { return e.b.range; }); });
    segCache[api] = segs;
    return segs;
  }

  // ---------------------------------------------------------------------------------------------
  // Layout: what is shown under the current API and filters.
  function relayout() {
    var t = performance.now();
    var low = lowering(S.api);
    var pf = lower(S.passFilter.trim()), rf = lower(S.resFilter.trim());
    var passVisible = passes.map(function (p) { return matches(p.name, pf); });
    // With a pass filter, the resource lanes are those the shown passes touch.
    var touched = null;
    if (pf) {
      touched = new Uint8Array(resources.length);
      data.uses.forEach(function (u) { if (passVisible[u[0]]) touched[u[1]] = 1; });
      low.barriers.forEach(function (b) { if (passVisible[b.pass]) touched[b.resource] = 1; });
    }
    // Rows: one per resource shown, followed by its sub-lanes when expanded (S.expanded).
    var rows = [], rowOf = new Int32Array(resources.length).fill(-1), segsAll = segmentsFor(S.api);
    var rowSegs = [], subRow = new Map(), lanes = 0;
    resources.forEach(function (r, i) {
      if (!(matches(r.name, rf) && (!touched || touched[i]))) return;
      rowOf[i] = rows.length; rows.push({ res: i, range: null }); rowSegs.push(segsAll[i]); ++lanes;
      if (!S.expanded.has(i)) return;
      subRanges(S.api, i).forEach(function (rg) {
        subRow.set(i + ':' + rg, rows.length);
        rows.push({ res: i, range: rg }); rowSegs.push(subSegments(S.api, i, rg));
      });
    });
    var laneItems = queues.map(function () { return []; }), passItems = [];
    passes.forEach(function (p) {
      if (!passVisible[p.i]) return;
      var it = { pass: p.i, lane: p.lane, x0: passX0(p), x1: passX1(p) };
      laneItems[p.lane].push(it);
      passItems.push(it);
    });
    laneItems.forEach(function (a) { a.sort(function (x, y) { return x.x0 - y.x0; }); });
    // Group spans per lane: consecutive shown passes of one group.
    var groupSpans = laneItems.map(function (items) {
      var spans = [];
      items.forEach(function (it) {
        var g = passes[it.pass].group, last = spans[spans.length - 1];
        if (last && last.group === g) last.x1 = it.x1 + 0.08; else spans.push({ group: g, x0: it.x0 - 0.08, x1: it.x1 + 0.08 });
      });
      return spans;
    });
    var markers = [], rowMarkers = rows.map(function () { return []; }), dups = new Map();
    low.barriers.forEach(function (b, i) {
      var row = rowOf[b.resource];
      if (!passVisible[b.pass] || row < 0) return;
      var key = b.resource + ':' + b.pass + ':' + b.op + ':' + b.where;
      var dup = dups.get(key) || 0;
      dups.set(key, dup + 1);
      var m = { b: i, row: row, x: barrierX(b), dup: dup };
      markers.push(m);
      rowMarkers[row].push(m);
      // On its sub-lane too (and a whole-resource barrier on every sub-lane): drawn and hit there,
      // counted once (L.markers).
      if (S.expanded.has(b.resource)) {
        subRanges(S.api, b.resource).forEach(function (rg) {
          if (b.range !== 'all' && b.range !== rg) return;
          var sr = subRow.get(b.resource + ':' + rg);
          rowMarkers[sr].push({ b: i, row: sr, x: m.x, dup: 0 });
        });
      }
    });
    rowMarkers.forEach(function (a) { a.sort(function (x, y) { return x.x - y.x || x.dup - y.dup; }); });
    var waits = data.waits.filter(function (w) { return passVisible[w.signal] && passVisible[w.wait]; });
    var blocks = hasMemory ? data.memory.blocks.filter(function (b) { return matches(b.name, rf); }) : [];
    var aliasMarks = hasMemory ? data.memory.aliasing.filter(function (a) { return passVisible[a.pass] && matches(a.resource, rf); }) : [];
    L = { low: low, passVisible: passVisible, rows: rows, rowOf: rowOf, rowSegs: rowSegs, lanes: lanes, laneItems: laneItems, passItems: passItems,
          groupSpans: groupSpans, markers: markers, rowMarkers: rowMarkers, waits: waits, blocks: blocks,
          aliasMarks: aliasMarks, segs: segmentsFor(S.api) };
    clampScroll();
    updateChrome();
    timings.layout = performance.now() - t;
    invalidate();
  }

  // ---------------------------------------------------------------------------------------------
  // Geometry.
  function topFixed() { return AXIS_H + queues.length * LANE_H; }
  function contentHeight() {
    return SECTION_H + L.rows.length * RES_H + (hasMemory ? SECTION_H + MEM_H + 10 : 0);
  }
  function viewW() { return canvas.clientWidth; }
  function viewH() { return canvas.clientHeight; }
  function sxOf(x) { return LABEL_W + x * S.zoom - S.sx; }
  function slotAt(px) { return (px - LABEL_W + S.sx) / S.zoom; }
  function clampScroll() {
    var maxX = Math.max(0, xEnd * S.zoom + 40 - (viewW() - LABEL_W));
    var maxY = Math.max(0, contentHeight() - (viewH() - topFixed()));
    S.sx = Math.min(Math.max(0, S.sx), maxX);
    S.sy = Math.min(Math.max(0, S.sy), maxY);
  }
  function fit() {
    S.zoom = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, (viewW() - LABEL_W - 20) / xEnd));
    S.sx = 0;
    clampScroll();
    invalidate();
  }
  function zoomAround(px, factor) {
    var x = slotAt(px);
    S.zoom = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, S.zoom * factor));
    S.sx = x * S.zoom - (px - LABEL_W);
    clampScroll();
    invalidate();
  }

  // ---------------------------------------------------------------------------------------------
  // Drawing.
  function invalidate() {
    if (dirty) return;
    dirty = true;
    requestAnimationFrame(draw);
  }

  function resize() {
    var dpr = window.devicePixelRatio || 1;
    canvas.width = Math.max(1, Math.round(canvas.clientWidth * dpr));
    canvas.height = Math.max(1, Math.round(canvas.clientHeight * dpr));
    if (L) { clampScroll(); invalidate(); }
  }

  // [fill, stroke] of a barrier marker: issued, first touch or discard (nothing to wait for), omitted.
  var MARKER_STYLES = { issued: ['#c0392b', '#5c1a12'], first: ['#d9822b', '#5c1a12'], omitted: ['#b8c0c9', '#6b7683'] };
  function markerStyle(b) {
    if (b.omitted) return MARKER_STYLES.omitted;
    return b.reason === 'first touch' || b.reason === 'discard' ? MARKER_STYLES.first : MARKER_STYLES.issued;
  }

  function text(s, x, y, maxW) {
    if (maxW < 12) return;
    if (ctx.measureText(s).width > maxW) {
      var n = Math.max(1, Math.floor(s.length * maxW / ctx.measureText(s).width) - 1);
      s = s.slice(0, n) + '\u2026';
    }
    ctx.fillText(s, x, y);
  }

  function arrow(lines, heads, x0, y0, x1, y1) {
    lines.moveTo(x0, y0); lines.lineTo(x1, y1);
    if (!heads) return;
    var a = Math.atan2(y1 - y0, x1 - x0), h = 7;
    heads.moveTo(x1, y1);
    heads.lineTo(x1 - h * Math.cos(a - 0.4), y1 - h * Math.sin(a - 0.4));
    heads.lineTo(x1 - h * Math.cos(a + 0.4), y1 - h * Math.sin(a + 0.4));
    heads.closePath();
  }

  function draw() {
    dirty = false;
    var t = performance.now();
    var dpr = window.devicePixelRatio || 1, W = viewW(), H = viewH();
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, W, H);
    ctx.font = '11px system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    var v0 = slotAt(LABEL_W) - 1, v1 = slotAt(W) + 1;
    drawn = { passes: 0, markers: 0, waits: 0, blocks: 0, rows: 0 };
    var top = topFixed();

    // Scrolling part: resource lanes, then the memory chart.
    ctx.save();
    ctx.beginPath(); ctx.rect(0, top, W, H - top); ctx.clip();
    var y0 = top - S.sy;
    ctx.fillStyle = '#e9edf2'; ctx.fillRect(0, y0, W, SECTION_H);
    ctx.fillStyle = '#36404c';
    ctx.fillText('resources: state over time (' + API_NAMES[S.api] + '); diamonds are barriers', LABEL_W + 8, y0 + SECTION_H / 2);
    var rowsTop = y0 + SECTION_H;
    var r0 = Math.max(0, Math.floor((top - rowsTop) / RES_H)), r1 = Math.min(L.rows.length, Math.ceil((H - rowsTop) / RES_H));
    // Zoomed out, markers are ticks (plain rectangles, the cheapest thing a canvas draws) and
    // anything that would land on pixels already painted in its row is skipped: over 10,000 passes
    // a row holds thousands of items but only as many pixels as the screen is wide. Zoomed in, few
    // markers are in view and each is a diamond.
    var ticks = S.zoom < 3 * MARK;
    for (var row = r0; row < r1; ++row) {
      var ry = rowsTop + row * RES_H;
      drawn.rows++;
      ctx.fillStyle = row % 2 ? '#fafbfc' : '#ffffff';
      ctx.fillRect(LABEL_W, ry, W - LABEL_W, RES_H);
      var segs = L.rowSegs[row], lastPx = -1;
      for (var k = lowerBound(segs, v0, function (s) { return s.x1; }); k < segs.length && segs[k].x0 <= v1; ++k) {
        var sg = segs[k], a = Math.max(LABEL_W, sxOf(sg.x0)), b = Math.min(W, sxOf(sg.x1));
        if (b <= a || (b - a < 1 && Math.floor(a) === lastPx)) continue;
        lastPx = Math.floor(a);
        ctx.fillStyle = sg.color;
        ctx.fillRect(a, ry + 3, Math.max(1, b - a), RES_H - 6);
        if (b - a > 22) { ctx.fillStyle = '#2b3440'; text(sg.label, a + 4, ry + RES_H / 2, b - a - 10); }
      }
      var ms = L.rowMarkers[row], lastMx = -1e9, cy = ry + RES_H / 2;
      for (k = lowerBound(ms, v0, function (m) { return m.x; }); k < ms.length && ms[k].x <= v1; ++k) {
        var m = ms[k], mx = sxOf(m.x) + m.dup * DUP_DX;
        if (mx - lastMx < (ticks ? 2 : 1)) continue;
        lastMx = mx;
        var st = markerStyle(L.low.barriers[m.b]);
        ctx.fillStyle = st[0];
        if (ticks) {
          ctx.fillRect(Math.round(mx) - 1, cy - MARK, 3, 2 * MARK);
        } else {
          ctx.strokeStyle = st[1];
          ctx.beginPath();
          ctx.moveTo(mx, cy - MARK); ctx.lineTo(mx + MARK, cy); ctx.lineTo(mx, cy + MARK); ctx.lineTo(mx - MARK, cy); ctx.closePath();
          ctx.fill(); ctx.stroke();
        }
        drawn.markers++;
      }
    }
    if (hasMemory) drawMemory(rowsTop + L.rows.length * RES_H, v0, v1, W);
    ctx.restore();

    // Fixed part: the axis and the queue lanes.
    ctx.fillStyle = '#ffffff'; ctx.fillRect(0, 0, W, top);
    drawAxis(W);
    for (var q = 0; q < queues.length; ++q) {
      var ly = AXIS_H + q * LANE_H;
      ctx.fillStyle = q % 2 ? '#f4f7fb' : '#eef3f9';
      ctx.fillRect(LABEL_W, ly, W - LABEL_W, LANE_H);
      var spans = L.groupSpans[q];
      for (k = lowerBound(spans, v0, function (s) { return s.x1; }); k < spans.length && spans[k].x0 <= v1; ++k) {
        ctx.fillStyle = k % 2 ? '#9fb3c8' : '#6f8aa6';
        ctx.fillRect(sxOf(spans[k].x0), ly + LANE_H - 4, Math.max(1, (spans[k].x1 - spans[k].x0) * S.zoom), 3);
      }
      var items = L.laneItems[q];
      var lastBox = -1;
      for (k = lowerBound(items, v0, function (it) { return it.x1; }); k < items.length && items[k].x0 <= v1; ++k) {
        var it = items[k], px = sxOf(it.x0), pw = Math.max(1, (it.x1 - it.x0) * S.zoom);
        if (pw <= 1 && Math.floor(px) === lastBox) continue;  // this pixel is painted already
        lastBox = Math.floor(px);
        ctx.fillStyle = hover && hover.kind === 'pass' && hover.item === it ? '#f5c542' : '#7fa7d6';
        ctx.fillRect(px, ly + 4, pw, LANE_H - 10);
        if (pw > 24) { ctx.fillStyle = '#0f2238'; text(passes[it.pass].name, px + 3, ly + LANE_H / 2 - 1, pw - 6); }
        drawn.passes++;
      }
    }
    // Cross-queue waits: from the end of the signalling pass to the start of the waiting one.
    var lines = new Path2D(), heads = new Path2D(), seen = new Set();
    L.waits.forEach(function (w) {
      var s = passes[w.signal], d = passes[w.wait];
      var sx1 = passX1(s), dx0 = passX0(d);
      if (Math.max(sx1, dx0) < v0 || Math.min(sx1, dx0) > v1) return;
      var x0 = sxOf(sx1), y0 = AXIS_H + s.lane * LANE_H + LANE_H / 2;
      var x1 = sxOf(dx0), y1 = AXIS_H + d.lane * LANE_H + LANE_H / 2;
      var key = Math.round(x0) + ':' + Math.round(x1) + ':' + s.lane + ':' + d.lane;
      if (seen.has(key)) return;
      seen.add(key);
      arrow(lines, S.zoom >= 2 ? heads : null, x0, y0, x1, y1);  // heads only where they can be told apart
      drawn.waits++;
    });
    ctx.strokeStyle = '#c0392b'; ctx.fillStyle = '#c0392b'; ctx.lineWidth = 1.5;
    ctx.stroke(lines); ctx.fill(heads);
    ctx.lineWidth = 1;

    // The label column, over everything.
    ctx.fillStyle = '#f7f8fa'; ctx.fillRect(0, 0, LABEL_W, H);
    ctx.strokeStyle = '#d5dae1'; ctx.beginPath(); ctx.moveTo(LABEL_W + 0.5, 0); ctx.lineTo(LABEL_W + 0.5, H); ctx.stroke();
    ctx.fillStyle = '#36404c';
    ctx.fillText(T ? 'GPU time (us)' : 'slot', 8, AXIS_H / 2);
    ctx.font = '600 12px system-ui, sans-serif';
    for (q = 0; q < queues.length; ++q) ctx.fillText(queues[q] + ' queue', 8, AXIS_H + q * LANE_H + LANE_H / 2);
    ctx.font = '11px system-ui, sans-serif';
    ctx.save();
    ctx.beginPath(); ctx.rect(0, top, LABEL_W, H - top); ctx.clip();
    for (row = r0; row < r1; ++row) {
      var rw = L.rows[row], r = resources[rw.res];
      ctx.fillStyle = r.transient ? '#7a4b00' : '#2b3440';
      if (rw.range !== null) text('\u2514 ' + rw.range, 22, rowsTop + row * RES_H + RES_H / 2, LABEL_W - 26);
      else text((S.expanded.has(rw.res) ? '\u25be ' : (subRanges(S.api, rw.res).length ? '\u25b8 ' : '')) + r.name +
                (r.type === 'buffer' ? ' (buffer)' : ''), 12, rowsTop + row * RES_H + RES_H / 2, LABEL_W - 16);
    }
    if (hasMemory) {
      var my = rowsTop + L.rows.length * RES_H;
      ctx.fillStyle = '#36404c';
      ctx.fillText('transient heap', 8, my + SECTION_H + 10);
      ctx.fillText(mib(heap), 8, my + SECTION_H + 26);
      ctx.fillText('offset \u2193, time \u2192', 8, my + SECTION_H + 42);
    }
    ctx.restore();
    timings.lastDraw = performance.now() - t;
    if (timings.firstDraw === null) {
      timings.firstDraw = timings.lastDraw;
      timings.total = performance.now() - t0;
      api.ready = true;
      document.body.setAttribute('data-ready', '1');
    }
    publishCounts();
  }

  function drawAxis(W) {
    var step = 1;
    var target = 70 / S.zoom;
    while (step < target) step *= (String(step)[0] === '2' ? 2.5 : 2);
    step = Math.max(1, Math.round(step));
    var first = Math.max(0, Math.floor(slotAt(LABEL_W) / step) * step);
    ctx.fillStyle = '#55606e'; ctx.strokeStyle = '#d5dae1';
    for (var s = first; s <= xEnd && sxOf(s) <= W; s += step) {
      var x = sxOf(s);
      if (x < LABEL_W) continue;
      ctx.beginPath(); ctx.moveTo(x + 0.5, AXIS_H - 5); ctx.lineTo(x + 0.5, AXIS_H); ctx.stroke();
      ctx.fillText(T ? String(Math.round(s * T.unit)) : String(s), x + 3, AXIS_H / 2);
    }
  }

  function memY(top, offset) { return top + SECTION_H + (heap ? offset / heap : 0) * MEM_H; }
  function drawMemory(top, v0, v1, W) {
    ctx.fillStyle = '#e9edf2'; ctx.fillRect(0, top, W, SECTION_H);
    ctx.fillStyle = '#36404c';
    ctx.fillText('memory: transient aliasing (heap offset x time): ' + mib(heap) + ' with aliasing, ' +
                 mib(data.memory.unaliased) + ' without, lower bound ' + mib(data.memory.lower_bound), LABEL_W + 8, top + SECTION_H / 2);
    ctx.strokeStyle = '#c9d1da';
    ctx.strokeRect(LABEL_W + 0.5, top + SECTION_H + 0.5, W - LABEL_W - 1, MEM_H);
    L.blocks.forEach(function (b) {
      var bx0 = slotX0(b.first), bx1 = slotX1(b.last);
      if (bx1 < v0 || bx0 > v1) return;
      var x = sxOf(bx0), w = Math.max(1, (bx1 - bx0) * S.zoom);
      var y = memY(top, b.offset), h = Math.max(1, memY(top, b.offset + b.size) - y);
      ctx.fillStyle = colorOf(b.name);
      ctx.fillRect(x, y, w, h);
      ctx.strokeStyle = hover && hover.kind === 'block' && hover.block === b ? '#1d232b' : '#7c8794';
      ctx.strokeRect(x + 0.5, y + 0.5, w - 1, h - 1);
      if (w > 30 && h > 12) { ctx.fillStyle = '#1d232b'; text(b.name, x + 3, y + Math.min(h / 2, 9), w - 6); }
      drawn.blocks++;
    });
    ctx.fillStyle = '#6c3483'; ctx.strokeStyle = '#3b1a4a';
    L.aliasMarks.forEach(function (a) {
      var p = passes[a.pass];
      if (passX1(p) < v0 || passX0(p) > v1) return;
      var blk = blockByName[a.resource];
      ctx.beginPath();
      var x = sxOf(passX0(p)), y = blk ? memY(top, blk.offset) : top + SECTION_H;
      ctx.moveTo(x, y); ctx.lineTo(x + 6, y + 8); ctx.lineTo(x - 6, y + 8); ctx.closePath(); ctx.fill(); ctx.stroke();
    });
  }
  var blockByName = {};
  data.memory.blocks.forEach(function (b) { blockByName[b.name] = b; });

  // ---------------------------------------------------------------------------------------------
  // Hit-testing: the same arrays as drawing, searched at the pointer.
  function hitAt(mx, my) {
    if (!L || mx < LABEL_W) return null;
    var top = topFixed(), x = slotAt(mx), k;
    if (my >= AXIS_H && my < top) {
      var lane = Math.floor((my - AXIS_H) / LANE_H), items = L.laneItems[lane];
      var tol = 2 / S.zoom;
      k = lowerBound(items, x - tol, function (it) { return it.x1; });
      if (k < items.length && items[k].x0 - tol <= x) return { kind: 'pass', item: items[k] };
      return null;
    }
    if (my < top) return null;
    var rowsTop = top - S.sy + SECTION_H;
    var row = Math.floor((my - rowsTop) / RES_H);
    if (my >= rowsTop && row < L.rows.length) {
      var ms = L.rowMarkers[row], best = null, bestD = MARK + 2;
      var ry = rowsTop + row * RES_H + RES_H / 2;
      if (Math.abs(my - ry) <= MARK + 2) {
        k = lowerBound(ms, x - (MARK + 2 + 8 * DUP_DX) / S.zoom, function (m) { return m.x; });
        for (; k < ms.length && ms[k].x <= x + (MARK + 2) / S.zoom; ++k) {
          var d = Math.abs(sxOf(ms[k].x) + ms[k].dup * DUP_DX - mx);
          if (d <= bestD) { bestD = d; best = ms[k]; }
        }
      }
      if (best) return { kind: 'barrier', marker: best };
      var segs = L.rowSegs[row];
      k = lowerBound(segs, x, function (s) { return s.x1; });
      if (k < segs.length && segs[k].x0 <= x) return { kind: 'state', seg: segs[k], resource: L.rows[row].res };
      return null;
    }
    if (hasMemory) {
      var mtop = rowsTop + L.rows.length * RES_H;
      for (var i = 0; i < L.aliasMarks.length; ++i) {
        var a = L.aliasMarks[i], blk = blockByName[a.resource];
        var ax = sxOf(passX0(passes[a.pass])), ay = blk ? memY(mtop, blk.offset) + 4 : mtop + SECTION_H + 4;
        if (Math.abs(mx - ax) <= 6 && Math.abs(my - ay) <= 6) return { kind: 'alias', mark: a };
      }
      for (i = 0; i < L.blocks.length; ++i) {
        var b = L.blocks[i];
        if (x >= slotX0(b.first) && x < slotX1(b.last) && my >= memY(mtop, b.offset) && my < memY(mtop, b.offset + b.size))
          return { kind: 'block', block: b };
      }
    }
    return null;
  }

  function tooltipLines(h) {
    var lines = [];
    if (h.kind === 'pass') {
      var p = passes[h.item.pass];
      lines.push((data.kind === 'graph' ? 'pass ' : 'list ') + p.name);
      lines.push('queue: ' + p.queue + ', group ' + p.group + ', slot ' + p.slot + (p.ops > 1 ? ', ' + p.ops + ' operations' : ''));
      if (T) lines.push('GPU time: ' + us(T.pass[p.i][0]) + ' .. ' + us(T.pass[p.i][1]) + ' (' + us(T.pass[p.i][1] - T.pass[p.i][0]) + ')');
      var reads = [], writes = [];
      usesOf[p.i].forEach(function (u) { (u[2] ? writes : reads).push(resources[u[1]].name); });
      if (reads.length) lines.push('reads: ' + reads.join(', '));
      if (writes.length) lines.push('writes: ' + writes.join(', '));
      data.waits.forEach(function (w) {
        if (w.wait === p.i) lines.push('waits for: ' + passes[w.signal].name + ' (' + passes[w.signal].queue + ')');
        if (w.signal === p.i) lines.push('signals: ' + passes[w.wait].name + ' (' + passes[w.wait].queue + ')');
      });
      var n = 0;
      L.low.barriers.forEach(function (b) { if (b.pass === p.i) ++n; });
      lines.push('barriers here (' + API_NAMES[S.api] + '): ' + n);
    } else if (h.kind === 'barrier') {
      var b = L.low.barriers[h.marker.b], bp = passes[b.pass];
      lines.push('barrier (' + API_NAMES[S.api] + ')' + (b.omitted ? ', omitted' : ''));
      lines.push(resources[b.resource].name + '[' + b.range + ']');
      lines.push(b.before + ' -> ' + b.after);
      lines.push('reason: ' + b.reason);
      lines.push('rule: ' + b.rule);
      lines.push('at: ' + b.where + ' op ' + b.op + ' of ' + bp.name + ' (' + bp.queue + ', group ' + bp.group + ')');
      if (b.note) lines.push('note: ' + b.note);
      if (b.omitted) lines.push('omitted: ' + b.omitted);
    } else if (h.kind === 'state') {
      lines.push(resources[h.resource].name + (h.seg.range !== 'all' ? ' (last barrier on ' + h.seg.range + ')' : ''));
      lines.push('state: ' + h.seg.state);
      lines.push(T ? us(h.seg.x0) + ' .. ' + us(h.seg.x1) : 'slots ' + h.seg.x0.toFixed(2) + ' .. ' + h.seg.x1.toFixed(2));
    } else if (h.kind === 'block') {
      lines.push('transient ' + h.block.name);
      lines.push('heap offset ' + h.block.offset + ', ' + h.block.size + ' bytes (' + mib(h.block.size) + ')');
      lines.push('live from slot ' + h.block.first + ' to ' + h.block.last);
    } else if (h.kind === 'alias') {
      lines.push('aliasing barrier before ' + passes[h.mark.pass].name);
      lines.push((h.mark.previous.length ? h.mark.previous.join(', ') : '(unused memory)') + ' -> ' + h.mark.resource);
    }
    return lines;
  }

  function showTip(h, mx, my) {
    hover = h;
    if (!h) { tip.hidden = true; canvas.style.cursor = 'default'; invalidate(); return; }
    tip.textContent = tooltipLines(h).join('\n');
    tip.hidden = false;
    canvas.style.cursor = 'pointer';
    var W = stage.clientWidth, H = stage.clientHeight;
    var x = mx + 14, y = my + 14;
    if (x + tip.offsetWidth > W) x = Math.max(0, mx - tip.offsetWidth - 10);
    if (y + tip.offsetHeight > H) y = Math.max(0, my - tip.offsetHeight - 10);
    tip.style.left = x + 'px';
    tip.style.top = y + 'px';
    invalidate();
  }

  // ---------------------------------------------------------------------------------------------
  // The page around the canvas.
  function updateChrome() {
    document.getElementById('source').textContent = data.source + ' (' + data.kind + ')';
    var low = L.low, notes = document.getElementById('notes');
    notes.textContent = '';
    if (low.error) {
      var e = document.createElement('div');
      e.className = 'error';
      e.textContent = API_NAMES[S.api] + ': cannot lower this frame: ' + low.error;
      notes.appendChild(e);
    }
    function details(title, list) {
      if (!list.length) return;
      var d = document.createElement('details'), s = document.createElement('summary');
      s.textContent = title + ' (' + list.length + ')';
      d.appendChild(s);
      list.forEach(function (t) { var div = document.createElement('div'); div.textContent = t; d.appendChild(div); });
      notes.appendChild(d);
    }
    details('findings of the checks', data.findings);
    details('culled passes', data.culled);
    var issued = low.error ? 0 : low.issued, calls = low.error ? 0 : low.calls;
    document.getElementById('summary').textContent =
      L.passItems.length + ' of ' + passes.length + ' passes \u00b7 ' + L.markers.length + ' barrier markers (' +
      issued + ' API barriers in ' + calls + ' calls) \u00b7 ' + L.waits.length + ' waits' +
      (hasMemory ? ' \u00b7 heap ' + mib(heap) : '');
    document.querySelectorAll('input[name=api]').forEach(function (r) { r.checked = r.value === S.api; });
    document.body.setAttribute('data-api', S.api);
  }

  // The legend's reason words, each with its rule, and what the x axis is.
  function fillLegend() {
    var box = document.getElementById('legend-reasons');
    box.textContent = '';
    data.reasons.forEach(function (r) {
      var d = document.createElement('div'), b = document.createElement('b');
      b.textContent = r.name;
      d.appendChild(b);
      d.appendChild(document.createTextNode(': ' + r.rule));
      box.appendChild(d);
    });
    document.getElementById('legend-axis').textContent = T
      ? 'x axis: GPU time measured by baton run --timestamps (' + T.source + ')'
      : 'x axis: submission order, one slot per pass (baton view --timestamps draws measured GPU times)';
  }

  function publishCounts() {
    var c = api.counts();
    var b = document.body;
    b.setAttribute('data-pass-boxes', c.passBoxes);
    b.setAttribute('data-barrier-markers', c.barrierMarkers);
    b.setAttribute('data-wait-arrows', c.waitArrows);
  }

  var timings = { parse: tParsed - t0, layout: 0, firstDraw: null, lastDraw: 0, total: 0 };
  // For tests and for the curious: counts come from the arrays the drawing and hit-testing use.
  var api = {
    ready: false,
    timings: timings,
    counts: function () {
      return { passBoxes: L.passItems.length, barrierMarkers: L.markers.length, waitArrows: L.waits.length,
               resourceLanes: L.lanes, subLanes: L.rows.length - L.lanes, memoryBlocks: L.blocks.length, aliasMarkers: L.aliasMarks.length };
    },
    drawn: function () { return Object.assign({}, drawn); },
    api: function () { return S.api; },
    setApi: function (a) { if (!(a in data.lowerings)) throw new Error('unknown api ' + a); S.api = a; hover = null; tip.hidden = true; relayout(); },
    setFilters: function (pass, resource) {
      S.passFilter = pass || ''; S.resFilter = resource || '';
      document.getElementById('filter-pass').value = S.passFilter;
      document.getElementById('filter-resource').value = S.resFilter;
      relayout();
    },
    fit: fit,
    // Sub-lanes of a resource (as a click on its label does): true if it is now expanded.
    toggleSubLanes: function (name) {
      var i = resources.findIndex(function (r) { return r.name === name; });
      if (i < 0) throw new Error('unknown resource ' + name);
      if (S.expanded.has(i)) S.expanded.delete(i); else S.expanded.add(i);
      relayout();
      return S.expanded.has(i);
    },
    // Markers inside the viewport that the pointer would hit at their centre, in page coordinates.
    visibleMarkers: function (limit) {
      var out = [], rect = canvas.getBoundingClientRect(), W = viewW(), H = viewH();
      for (var i = 0; i < L.markers.length && out.length < (limit || 50); ++i) {
        var m = L.markers[i];
        var x = sxOf(m.x) + m.dup * DUP_DX, y = topFixed() - S.sy + SECTION_H + m.row * RES_H + RES_H / 2;
        if (x < LABEL_W + MARK || x > W - MARK || y < topFixed() + MARK || y > H - MARK) continue;
        var h = hitAt(x, y);
        if (!h || h.kind !== 'barrier' || h.marker !== m) continue;
        var b = L.low.barriers[m.b];
        out.push({ x: rect.left + x, y: rect.top + y, resource: resources[b.resource].name, range: b.range,
                   before: b.before, after: b.after, reason: b.reason, rule: b.rule, pass: passes[b.pass].name });
      }
      return out;
    },
    frame: data,
    // Measured times: whether the x axis is GPU time, and where a pass is drawn (x units).
    timed: function () { return T !== null; },
    passSpan: function (name) {
      var p = passes.filter(function (q) { return q.name === name; })[0];
      return p ? { x0: passX0(p), x1: passX1(p), lane: p.lane, us: T ? [T.pass[p.i][0] * T.unit, T.pass[p.i][1] * T.unit] : null } : null;
    }
  };
  window.batonView = api;

  // ---------------------------------------------------------------------------------------------
  // Input.
  canvas.addEventListener('mousemove', function (e) {
    var r = canvas.getBoundingClientRect(), mx = e.clientX - r.left, my = e.clientY - r.top;
    if (drag) {
      S.sx = drag.sx - (e.clientX - drag.x); S.sy = drag.sy - (e.clientY - drag.y);
      clampScroll(); invalidate();
      return;
    }
    showTip(hitAt(mx, my), mx, my);
  });
  canvas.addEventListener('mouseleave', function () { showTip(null); });
  var drag = null;
  canvas.addEventListener('mousedown', function (e) {
    var r = canvas.getBoundingClientRect(), mx = e.clientX - r.left, my = e.clientY - r.top;
    // A click on a resource's label opens or closes its per-range sub-lanes.
    var rowsTop = topFixed() - S.sy + SECTION_H, row = Math.floor((my - rowsTop) / RES_H);
    if (mx < LABEL_W && my >= topFixed() && row >= 0 && row < L.rows.length && L.rows[row].range === null &&
        subRanges(S.api, L.rows[row].res).length) {
      var res = L.rows[row].res;
      if (S.expanded.has(res)) S.expanded.delete(res); else S.expanded.add(res);
      relayout();
      return;
    }
    drag = { x: e.clientX, y: e.clientY, sx: S.sx, sy: S.sy }; showTip(null);
  });
  window.addEventListener('mouseup', function () { drag = null; });
  canvas.addEventListener('wheel', function (e) {
    e.preventDefault();
    var r = canvas.getBoundingClientRect();
    if (e.ctrlKey || e.metaKey) { zoomAround(e.clientX - r.left, e.deltaY < 0 ? 1.25 : 0.8); return; }
    if (e.shiftKey) S.sx += e.deltaY; else { S.sx += e.deltaX; S.sy += e.deltaY; }
    clampScroll(); showTip(null); invalidate();
  }, { passive: false });
  window.addEventListener('keydown', function (e) {
    if (e.target && e.target.tagName === 'INPUT' && e.target.type === 'search') return;
    var W = viewW();
    if (e.key === '+' || e.key === '=') zoomAround((W + LABEL_W) / 2, 1.25);
    else if (e.key === '-') zoomAround((W + LABEL_W) / 2, 0.8);
    else if (e.key === '0') fit();
    else if (e.key === 'ArrowRight') { S.sx += 100; clampScroll(); invalidate(); }
    else if (e.key === 'ArrowLeft') { S.sx -= 100; clampScroll(); invalidate(); }
  });
  document.getElementById('zoom-in').addEventListener('click', function () { zoomAround((viewW() + LABEL_W) / 2, 1.25); });
  document.getElementById('zoom-out').addEventListener('click', function () { zoomAround((viewW() + LABEL_W) / 2, 0.8); });
  document.getElementById('fit').addEventListener('click', fit);
  document.querySelectorAll('input[name=api]').forEach(function(r) {
    // Only the lowerings in the page can be shown (`baton view --api all` embeds the three).
    if (!(r.value in data.lowerings)) {
      r.disabled = true;
      r.parentNode.title = 'not in this page: baton view --api ' + r.value + ' (or --api all)';
    }
    r.addEventListener('change', function () { if (r.checked) api.setApi(r.value); });
  });
  var filterTimer = null;
  ['filter-pass', 'filter-resource'].forEach(function (id) {
    document.getElementById(id).addEventListener('input', function () {
      clearTimeout(filterTimer);
      filterTimer = setTimeout(function () {
        S.passFilter = document.getElementById('filter-pass').value;
        S.resFilter = document.getElementById('filter-resource').value;
        relayout();
      }, 120);
    });
  });
  new ResizeObserver(resize).observe(stage);

  resize();
  fillLegend();
  relayout();
  fit();
})();
