// The subject workload's page: log in, pick a mode, mint / balance / deposit, and show what came back.
// Everything the page shows of a document is decoded by the server (assertion-core's DocumentDecoder);
// this script only lays it out.
(function () {
  'use strict';

  var MODE_NAMES = { 'dvid': 'DVID', 'id-mode': 'ID-Mode', 'anon-mode': 'Anon-Mode', 'lsvid': 'LSVID', 'txn-token': 'Txn-Token',
    'mtls-only': 'mTLS only', 'bearer-forward': 'Bearer forward', 'wimse': 'WIMSE' };

  // What the error codes of the problem details mean, in words (assertion-core's ErrorCode).
  var CODE_WORDS = {
    MALFORMED: 'The document could not be read: it is not in the expected format.',
    LIMIT_EXCEEDED: 'The document is larger or deeper than the configured limits allow.',
    UNSUPPORTED: 'The document uses a version, algorithm or key type that is not supported.',
    BAD_SIGNATURE: 'A signature in the document does not verify.',
    BAD_PROOF: 'The zero-knowledge proof attached to the document does not verify.',
    UNTRUSTED_KEY: 'A key or certificate does not chain to the trust bundle.',
    BROKEN_LINK: 'The chain of layers is broken: a layer was not issued by the audience of the layer it wraps.',
    EXPIRED: 'The document or your access token has expired.',
    NOT_YET_VALID: 'The document is not valid yet (check the clocks).',
    REPLAYED: 'A single-use proof of the request was presented a second time.',
    WRONG_AUDIENCE: 'The document was addressed to another workload.',
    WRONG_PRESENTER: 'The document was presented by a workload that may not present it.',
    DELEGATION_INVALID: 'The delegation to act for you is missing or invalid.',
    UNKNOWN_ISSUER: 'Your identity provider is not one the workloads trust.',
    NOT_FOUND: 'The asserting workload does not know this document any more.',
    UPSTREAM_UNAVAILABLE: 'A workload behind this one could not be reached or failed.',
    SESSION_EXPIRED: 'Your session has expired. Log in again.'
  };

  var state = { csrf: null, busy: false };

  function $(id) { return document.getElementById(id); }

  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (k) {
        if (k === 'text') { e.textContent = attrs[k]; } else if (k === 'className') { e.className = attrs[k]; } else { e.setAttribute(k, attrs[k]); }
      });
    }
    (children || []).forEach(function (c) { if (c) { e.appendChild(typeof c === 'string' ? document.createTextNode(c) : c); } });
    return e;
  }

  function show(id, visible) { $(id).hidden = !visible; }

  function selectedMode() {
    var checked = document.querySelector('input[name="mode"]:checked');
    return checked ? checked.value : 'dvid';
  }

  // ---- session ----

  function loadSession(message) {
    return fetch('/page/session', { headers: { 'Accept': 'application/json' }, credentials: 'same-origin' })
      .then(function (res) { return res.json(); })
      .then(function (session) {
        state.csrf = session.csrf || null;
        state.traceUi = session.traceUi || null;
        show('loading', false);
        if (session.authenticated) {
          $('user-name').textContent = session.user;
          $('logout-csrf').value = state.csrf ? state.csrf.token : '';
          show('who', true);
          show('login-view', false);
          show('app-view', true);
        } else {
          showLogin(session.logins || [], message);
        }
      })
      .catch(function () {
        show('loading', false);
        showError({ title: 'The page cannot reach the subject workload', detail: 'Check that it is running and reload.' });
      });
  }

  function showLogin(logins, message) {
    show('who', false);
    show('app-view', false);
    var list = $('logins');
    list.textContent = '';
    logins.forEach(function (login) {
      list.appendChild(el('li', null, [el('a', { href: login.url, className: 'button', id: 'login-' + login.id, text: 'Log in with ' + login.name })]));
    });
    if (!logins.length) {
      message = (message ? message + ' ' : '') + 'The identity provider cannot be reached right now: reload the page in a moment.';
    }
    $('login-message').textContent = message || '';
    show('login-view', true);
  }

  // ---- calls ----

  function call(operation) {
    if (state.busy) { return; }
    var mode = selectedMode();
    var body = {};
    if (operation === 'deposit') {
      var amount = Number($('amount').value);
      if (!Number.isInteger(amount) || amount < 1) {
        showError({ title: 'Invalid amount', detail: 'Enter a whole number of at least 1.' });
        $('amount').focus();
        return;
      }
      body.amount = amount;
    }
    var headers = { 'Content-Type': 'application/json', 'Accept': 'application/json' };
    if (state.csrf) { headers[state.csrf.header] = state.csrf.token; }
    setBusy(true, MODE_NAMES[mode] + ': ' + operation + '…');
    clearError();
    fetch('/page/api/' + mode + '/' + operation, {
      method: 'POST', headers: headers, body: JSON.stringify(body), credentials: 'same-origin', redirect: 'error'
    }).then(function (res) {
      var timing = res.headers.get('Server-Timing');
      var trace = res.headers.get('traceresponse');
      return res.text().then(function (text) {
        var json = null;
        try { json = text ? JSON.parse(text) : null; } catch (e) { json = null; }
        return { status: res.status, ok: res.ok, json: json, timing: timing, trace: trace };
      });
    }).then(function (answer) {
      setBusy(false, '');
      if (answer.status === 401) {
        loadSession(describe(answer.json || { code: 'SESSION_EXPIRED' }, 401));
        return;
      }
      if (!answer.ok) {
        showError(answer.json || { title: 'HTTP ' + answer.status, status: answer.status });
        drawTiming(answer.timing, answer.trace);
        return;
      }
      if (operation === 'mint') { drawDocument(answer.json); } else { drawAccount(answer.json); }
      drawTiming(answer.timing, answer.trace);
      $('status').textContent = MODE_NAMES[mode] + ': ' + operation + ' done.';
    }).catch(function () {
      setBusy(false, '');
      showError({ title: 'No answer', detail: 'The subject workload did not answer (is it running?), or your session ended. Reload the page.' });
    });
  }

  function setBusy(busy, text) {
    state.busy = busy;
    ['mint', 'balance', 'deposit'].forEach(function (id) { $(id).disabled = busy; });
    $('status').textContent = text;
  }

  // ---- errors ----

  function describe(problem, status) {
    var words = [];
    if (problem.title) { words.push(problem.title + '.'); }
    if (problem.code && CODE_WORDS[problem.code]) { words.push(CODE_WORDS[problem.code]); }
    if (problem.detail) { words.push('Detail: ' + problem.detail + '.'); }
    var tail = [];
    if (problem.code) { tail.push('code ' + problem.code); }
    if (problem.status || status) { tail.push('HTTP ' + (problem.status || status)); }
    if (tail.length) { words.push('(' + tail.join(', ') + ')'); }
    return words.join(' ');
  }

  function showError(problem) {
    var box = $('error');
    box.textContent = describe(problem);
    box.hidden = false;
  }

  function clearError() { $('error').hidden = true; $('error').textContent = ''; }

  // ---- document ----

  function time(iso) { return iso ? iso.replace('T', ' ').replace('Z', ' UTC') : '–'; }

  function dl(rows) {
    var list = el('dl');
    rows.forEach(function (r) {
      if (r[1] === null || r[1] === undefined || r[1] === '') { return; }
      list.appendChild(el('dt', { text: r[0] }));
      list.appendChild(el('dd', { text: String(r[1]) }));
    });
    return list;
  }

  function anonymity(doc) {
    if (doc.layers.length === 1) {
      return ', the root is signed by a fresh key and names no workload; each hop adds an anonymous layer (see the verified path)';
    }
    return doc.hopsAnonymous ? ', hops anonymous (no layer names its workload)' : ', a hop names its workload (iid)';
  }

  // the baselines (mtls-only, bearer-forward) have no document: the answer says what travels instead
  function drawWithoutDocument(answer) {
    var claims = answer.claims || {};
    $('doc-summary').textContent = MODE_NAMES[answer.mode] + ' for ' + answer.user + ': no document; '
      + answer.size + ' bytes travel in its place (' + claims.travels + '). Kept until ' + time(answer.expiresAt) + '.';
    $('doc-header').textContent = '';
    var layers = $('layers');
    layers.textContent = '';
    var rows = Object.keys(claims).filter(function (k) { return k !== 'travels'; }).map(function (k) {
      return [k, typeof claims[k] === 'object' ? JSON.stringify(claims[k]) : claims[k]];
    });
    layers.appendChild(el('article', { className: 'layer', 'data-role': 'travels' }, [
      el('h3', { text: 'What travels' }),
      dl(rows)
    ]));
    $('doc-raw').textContent = '(nothing: this mode has no document, and the access token is never shown)';
    show('document', true);
  }

  function drawDocument(answer) {
    if (!answer.document) { drawWithoutDocument(answer); return; }
    var doc = answer.document;
    $('doc-summary').textContent = MODE_NAMES[answer.mode] + ' for ' + answer.user + ': ' + doc.encodedBytes + ' bytes, '
      + doc.layers.length + (doc.layers.length === 1 ? ' layer' : ' layers')
      + (answer.mode === 'dvid' ? (doc.proofAttached ? ', zero-knowledge proof attached (' + doc.proofRounds + ' rounds)' : ', no proof attached') : '')
      + (answer.mode === 'anon-mode' ? anonymity(doc) : '')
      + '. Expires ' + time(answer.expiresAt) + '.';
    var header = $('doc-header');
    header.textContent = '';
    if (doc.header && Object.keys(doc.header).length) {
      header.appendChild(el('h3', { text: 'Header' }));
      header.appendChild(dl(Object.keys(doc.header).map(function (k) { return [k, JSON.stringify(doc.header[k])]; })));
    }
    var layers = $('layers');
    layers.textContent = '';
    doc.layers.forEach(function (layer) {
      var rows = [
        ['issuer', layer.issuer + (answer.mode === 'anon-mode' ? ' (a public key)' : '')],
        ['subject', layer.subject],
        ['audience', layer.audience],
        ['dpa', layer.dpa],
        ['dpr', layer.dpr],
        ['issued (iat)', time(layer.issuedAt)],
        ['expires (exp)', time(layer.expiresAt)],
        ['signature', layer.signatureAlgorithm + ', ' + layer.signatureBytes + ' bytes']
      ];
      if (answer.mode === 'anon-mode') { rows.push(['anonymous', layer.anonymous ? 'yes' : 'no']); }
      Object.keys(layer.otherClaims || {}).forEach(function (k) {
        var v = layer.otherClaims[k];
        rows.push([k, typeof v === 'object' ? JSON.stringify(v) : v]);
      });
      layers.appendChild(el('article', { className: 'layer', 'data-role': layer.role }, [
        el('h3', { text: 'Layer ' + layer.index + ' · ' + layer.role }),
        dl(rows)
      ]));
    });
    $('doc-raw').textContent = answer.token || '';
    show('document', true);
  }

  function drawAccount(answer) {
    $('account-user').textContent = answer.user;
    $('account-mode').textContent = MODE_NAMES[answer.mode] || answer.mode;
    $('balance-value').textContent = String(answer.balance);
    var path = $('path');
    path.textContent = '';
    (answer.path || []).forEach(function (p) { path.appendChild(el('li', { text: p })); });
    if (answer.minted) { $('status').textContent = 'A new document was minted for this call.'; }
    show('account', true);
  }

  // ---- waterfall ----

  function parseTiming(header) {
    var entries = [];
    (header || '').split(',').forEach(function (item) {
      var parts = item.split(';');
      var name = parts[0].trim();
      if (!name) { return; }
      var entry = { name: name, dur: 0, start: 0 };
      parts.slice(1).forEach(function (p) {
        var kv = p.split('=');
        var v = Number((kv[1] || '').trim());
        if (kv[0].trim() === 'dur' && isFinite(v)) { entry.dur = v; }
        if (kv[0].trim() === 'start' && isFinite(v)) { entry.start = v; }
      });
      entries.push(entry);
    });
    return entries;
  }

  // "m-tier.target-wl.db_query" -> hops ["subject-wl", "m-tier", "target-wl"], operation "db_query"
  function hopOf(entry) {
    var parts = entry.name.split('.');
    return { path: ['subject-wl'].concat(parts.slice(0, -1)), op: parts[parts.length - 1] };
  }

  // W3C traceresponse "00-<trace id>-<span id>-<flags>": the trace of the whole call, a link when
  // spiffeidt.tracing.ui-url is set and the trace was sampled (exported)
  function traceLink(header) {
    var m = /^00-([0-9a-f]{32})-[0-9a-f]{16}-([0-9a-f]{2})$/.exec((header || '').trim());
    if (!m) { return null; }
    var id = m[1];
    var sampled = (parseInt(m[2], 16) & 1) === 1;
    if (state.traceUi && sampled) {
      return el('a', { className: 'trace', href: state.traceUi.split('{traceId}').join(id), target: '_blank', rel: 'noopener', text: 'trace ' + id.slice(0, 8), title: 'trace ' + id });
    }
    return el('span', { className: 'trace', text: 'trace ' + id.slice(0, 8), title: 'trace ' + id });
  }

  function drawTiming(header, trace) {
    var box = $('waterfall');
    box.textContent = '';
    var traceId = $('trace-id');
    traceId.textContent = '';
    var link = traceLink(trace);
    if (link) { traceId.appendChild(document.createTextNode('Trace of this call: ')); traceId.appendChild(link); }
    show('trace-id', !!link);
    var entries = parseTiming(header);
    if (!entries.length) { show('timing', false); return; }
    var end = 0;
    entries.forEach(function (e) { end = Math.max(end, e.start + e.dur); });
    end = end || 1;
    var groups = [];
    var byKey = {};
    var calls = {};
    entries.forEach(function (e) {
      var h = hopOf(e);
      var base = h.path.join(' → ');
      // a downstream's entries arrive together, its total first: another total is another call to it
      if (h.op === 'total' && h.path.length > 1) { calls[base] = (calls[base] || 0) + 1; }
      var key = base + (calls[base] > 1 ? ' (call ' + calls[base] + ')' : '');
      if (!byKey[key]) { byKey[key] = { key: key, hop: h.path[h.path.length - 1], rows: [] }; groups.push(byKey[key]); }
      byKey[key].rows.push({ op: h.op, start: e.start, dur: e.dur });
    });
    groups.forEach(function (g) {
      g.rows.sort(function (a, b) { return (a.op === 'total' ? -1 : 0) - (b.op === 'total' ? -1 : 0) || a.start - b.start; });
      g.first = Math.min.apply(null, g.rows.map(function (r) { return r.start; }));
    });
    groups.sort(function (a, b) { return a.first - b.first; });
    groups.forEach(function (g) {
      var section = el('div', { className: 'hop', role: 'rowgroup', 'data-hop': g.hop });
      section.appendChild(el('div', { className: 'hop-name', role: 'row' }, [el('span', { role: 'rowheader', text: g.key }), traceLink(trace)]));
      g.rows.forEach(function (r) {
        var bar = el('span', { className: 'bar' + (r.op === 'total' ? ' total' : '') });
        bar.style.marginLeft = (100 * r.start / end).toFixed(2) + '%';
        bar.style.width = Math.max(0.5, 100 * r.dur / end).toFixed(2) + '%';
        section.appendChild(el('div', { className: 'step', role: 'row', 'data-op': r.op }, [
          el('span', { className: 'op', role: 'cell', text: r.op }),
          el('span', { className: 'track', role: 'cell', 'aria-hidden': 'true' }, [bar]),
          el('span', { className: 'ms', role: 'cell', text: r.dur.toFixed(2) + ' ms' })
        ]));
      });
      box.appendChild(section);
    });
    show('timing', true);
  }

  document.addEventListener('DOMContentLoaded', function () {
    $('mint').addEventListener('click', function () { call('mint'); });
    $('balance').addEventListener('click', function () { call('balance'); });
    $('deposit').addEventListener('click', function () { call('deposit'); });
    $('actions').addEventListener('submit', function (e) { e.preventDefault(); call('deposit'); });
    loadSession(new URLSearchParams(window.location.search).has('logout') ? 'You are logged out.' : '');
  });
})();
