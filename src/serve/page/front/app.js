// The live page's script: plain DOM, no framework, no inline code (the CSP forbids it).
'use strict';
(function () {
  var KEYS = ['project', 'session', 'agent', 'decision', 'hook'];
  var MAX_ROWS = 500;
  var state = { session: null, filters: {}, rows: [], statsTimer: null };
  var $ = function (id) { return document.getElementById(id); };

  function status(text, bad) {
    var el = $('status');
    el.textContent = text;
    el.className = bad ? 'bad' : '';
  }

  function api(path, params) {
    var q = new URLSearchParams(params || {});
    return fetch('/page/api/' + path + (q.toString() ? '?' + q.toString() : ''), {
      headers: { authorization: 'Bearer ' + state.session },
      cache: 'no-store',
      credentials: 'omit'
    }).then(function (r) {
      if (r.status === 401) throw new Error('this page is no longer signed in: run "hooks serve page" for a new link');
      if (!r.ok) return r.text().then(function (t) { throw new Error(t); });
      return r.json();
    });
  }

  function filterParams() {
    var p = {};
    KEYS.forEach(function (k) { if (state.filters[k]) p[k] = state.filters[k]; });
    return p;
  }

  function keep(e) {
    var f = state.filters;
    if (f.project && e.project !== f.project) return false;
    if (f.session && e.session !== f.session) return false;
    if (f.agent && e.agent !== f.agent) return false;
    if (f.decision && e.decision !== f.decision) return false;
    if (f.hook && !e.hooks.some(function (h) { return h.id === f.hook; })) return false;
    return true;
  }

  function cell(tr, text, cls) {
    var td = document.createElement('td');
    td.textContent = text;
    if (cls) td.className = cls;
    tr.appendChild(td);
    return td;
  }

  function row(e) {
    var tr = document.createElement('tr');
    tr.dataset.id = String(e.id);
    tr.dataset.decision = e.decision;
    tr.className = 'd-' + e.decision;
    cell(tr, new Date(e.ts).toLocaleTimeString(), 'time');
    cell(tr, e.agent, 'agent');
    cell(tr, e.event + (e.tool ? ' ' + e.tool : ''));
    cell(tr, e.decision, 'decision');
    cell(tr, e.hooks.map(function (h) { return h.id + ' ' + h.outcome + ' ' + h.ms + 'ms' + (h.failure ? ' (' + h.failure + ')' : ''); }).join(', '), 'hooks');
    cell(tr, e.ms + ' ms', 'num');
    cell(tr, e.project, 'path').title = e.project;
    cell(tr, e.session.slice(0, 12), 'mono').title = e.session;
    // A reason names its hook already ("command-safety: ..."); decidedBy is shown only when there is none.
    cell(tr, e.reason || e.decidedBy || '', 'reason');
    return tr;
  }

  function render() {
    var body = $('events');
    body.textContent = '';
    state.rows.forEach(function (e) { body.appendChild(row(e)); });
    $('count').textContent = state.rows.length + ' shown';
  }

  function add(e) {
    if (!keep(e)) return;
    state.rows.unshift(e);
    if (state.rows.length > MAX_ROWS) state.rows.length = MAX_ROWS;
    var body = $('events');
    body.insertBefore(row(e), body.firstChild);
    while (body.children.length > MAX_ROWS) body.removeChild(body.lastChild);
    $('count').textContent = state.rows.length + ' shown';
    scheduleStats();
  }

  function svg(name, attrs) {
    var el = document.createElementNS('http://www.w3.org/2000/svg', name);
    Object.keys(attrs).forEach(function (k) { el.setAttribute(k, String(attrs[k])); });
    return el;
  }

  // Horizontal bars, one per hook: drawn here, no library.
  function bars(target, items, value, label, max, cls) {
    var host = $(target);
    host.textContent = '';
    var rowH = 20, left = 170, width = 420, right = 170;
    var chart = svg('svg', { width: left + width + right, height: Math.max(1, items.length) * rowH + 6, role: 'img' });
    if (items.length === 0) {
      var none = svg('text', { x: 4, y: 15, class: 'label' });
      none.textContent = 'no hook runs yet';
      chart.appendChild(none);
    }
    items.forEach(function (s, i) {
      var y = i * rowH + 3;
      var name = svg('text', { x: left - 6, y: y + 13, 'text-anchor': 'end', class: 'label' });
      name.textContent = s.hook.length > 26 ? s.hook.slice(0, 25) + '...' : s.hook;
      chart.appendChild(name);
      var w = max > 0 ? Math.max(1, Math.round((value(s) / max) * width)) : 1;
      chart.appendChild(svg('rect', { x: left, y: y + 2, width: w, height: rowH - 6, class: cls, 'data-hook': s.hook }));
      var t = svg('text', { x: left + w + 6, y: y + 13, class: 'label' });
      t.textContent = label(s);
      chart.appendChild(t);
    });
    host.appendChild(chart);
  }

  function drawStats(stats) {
    var maxMs = stats.reduce(function (m, s) { return Math.max(m, s.p95); }, 0);
    bars('latency', stats, function (s) { return s.p95; }, function (s) { return 'p50 ' + s.p50 + ' / p95 ' + s.p95 + ' ms'; }, maxMs, 'bar-ms');
    bars('blockrate', stats, function (s) { return s.blocks / s.runs; }, function (s) { return Math.round((100 * s.blocks) / s.runs) + '% of ' + s.runs; }, 1, 'bar-block');
  }

  function refreshStats() {
    state.statsTimer = null;
    api('stats', filterParams()).then(drawStats, function (err) { status(err.message, true); });
  }

  function scheduleStats() {
    if (state.statsTimer === null) state.statsTimer = setTimeout(refreshStats, 1000);
  }

  function fill(list, values) {
    var el = $(list);
    el.textContent = '';
    values.forEach(function (v) { var o = document.createElement('option'); o.value = v; el.appendChild(o); });
  }

  function loadHistory() {
    var p = filterParams();
    p.limit = '200';
    return Promise.all([api('events', p), api('facets')]).then(function (r) {
      state.rows = r[0];
      render();
      fill('projects', r[1].project);
      fill('sessions', r[1].session);
      fill('agents', r[1].agent);
      fill('hooks-list', r[1].hook);
      refreshStats();
    });
  }

  // Server-sent events over fetch (EventSource cannot send the Authorization header).
  function stream() {
    fetch('/page/api/stream', { headers: { authorization: 'Bearer ' + state.session }, cache: 'no-store', credentials: 'omit' }).then(function (r) {
      if (!r.ok || !r.body) throw new Error('the live stream was refused (' + r.status + ')');
      status('live', false);
      document.body.dataset.live = 'yes';
      var reader = r.body.getReader();
      var decoder = new TextDecoder();
      var buffer = '';
      function read() {
        return reader.read().then(function (chunk) {
          if (chunk.done) throw new Error('the server closed the live stream');
          buffer += decoder.decode(chunk.value, { stream: true });
          var at;
          while ((at = buffer.indexOf('\n\n')) >= 0) {
            var frame = buffer.slice(0, at);
            buffer = buffer.slice(at + 2);
            var data = frame.split('\n').filter(function (l) { return l.indexOf('data: ') === 0; }).map(function (l) { return l.slice(6); }).join('\n');
            if (data) add(JSON.parse(data));
          }
          return read();
        });
      }
      return read();
    }).catch(function (err) {
      document.body.dataset.live = 'no';
      status((err && err.message ? err.message : String(err)) + '; reconnecting...', true);
      setTimeout(function () { stream(); }, 2000);
    });
  }

  function readForm() {
    KEYS.forEach(function (k) { state.filters[k] = $('f-' + k).value.trim(); });
    loadHistory().catch(function (err) { status(err.message, true); });
  }

  function start() {
    var m = /[#&]code=([0-9a-f]{64})/.exec(location.hash);
    // The one-time code leaves the address bar (and the history) at once.
    if (location.hash) history.replaceState(null, '', location.pathname + location.search);
    var ready = m
      ? fetch('/page/api/session', { headers: { 'x-page-code': m[1] }, cache: 'no-store', credentials: 'omit' }).then(function (r) {
          if (!r.ok) throw new Error('this link was used or has expired: run "hooks serve page" for a new one');
          return r.json();
        }).then(function (j) { sessionStorage.setItem('agent-hooks-page', j.session); return j.session; })
      : Promise.resolve(sessionStorage.getItem('agent-hooks-page'));
    ready.then(function (session) {
      if (!session) throw new Error('not signed in: run "hooks serve page" and open the link it prints');
      state.session = session;
      return api('info');
    }).then(function (info) {
      if (info.note) { $('note').textContent = info.note; $('note').hidden = false; }
      $('store').textContent = info.store === 'sqlite' ? info.events + ' events kept' : 'in memory';
      KEYS.forEach(function (k) { $('f-' + k).addEventListener('change', readForm); });
      $('filters').addEventListener('submit', function (ev) { ev.preventDefault(); readForm(); });
      $('clear').addEventListener('click', function () { KEYS.forEach(function (k) { $('f-' + k).value = ''; }); readForm(); });
      return loadHistory().then(stream);
    }).catch(function (err) { status(err.message, true); });
  }

  document.addEventListener('DOMContentLoaded', start);
})();
