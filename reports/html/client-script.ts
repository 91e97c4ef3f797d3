// The one script report.html runs: the sample table's filters and pager, and figures opened at full size. It only
// shows, hides and reorders elements the page already has (no innerHTML, nothing fetched); the page's CSP allows
// this exact text by its hash and no other script.
import { createHash } from 'node:crypto';

export const CLIENT_SCRIPT = `(function () {
  'use strict';
  var fmt = function (n) { return n.toLocaleString('en-US'); };

  // Sample table: filters and paging.
  var controls = document.getElementById('sample-controls');
  var table = document.getElementById('samples');
  var form = document.getElementById('sample-filters');
  if (controls && table && form) {
    var items = Array.prototype.map.call(table.tBodies[0].rows, function (tr) {
      var text = '';
      Array.prototype.forEach.call(tr.querySelectorAll('.q, .pred, .gold'), function (el) {
        text += '\\n' + el.textContent.toLowerCase();
      });
      return { tr: tr, text: text };
    });
    var selects = Array.prototype.filter.call(form.querySelectorAll('select'), function (s) {
      return s.name !== 'size';
    });
    var bottom = document.getElementById('sample-pager-bottom');
    var empty = document.getElementById('sample-empty');
    var pagers = document.querySelectorAll('.pager');
    var page = 0;
    var pages = 1;

    var render = function () {
      var wanted = selects.filter(function (s) { return s.value !== ''; }).map(function (s) {
        return { key: s.name, value: s.value };
      });
      var terms = form.elements.q.value.toLowerCase().split(/\\s+/).filter(Boolean);
      var hits = items.filter(function (it) {
        for (var i = 0; i < wanted.length; i++) {
          var have = (it.tr.getAttribute('data-' + wanted[i].key) || '').split(' ');
          if (have.indexOf(wanted[i].value) < 0) return false;
        }
        for (var j = 0; j < terms.length; j++) if (it.text.indexOf(terms[j]) < 0) return false;
        return true;
      });
      var size = Number(form.elements.size.value) || Math.max(hits.length, 1);
      pages = Math.max(1, Math.ceil(hits.length / size));
      page = Math.min(Math.max(page, 0), pages - 1);
      var from = page * size;
      var shown = hits.slice(from, from + size);
      items.forEach(function (it) { it.tr.hidden = true; it.tr.classList.remove('alt'); });
      shown.forEach(function (it, k) { it.tr.hidden = false; if (k % 2) it.tr.classList.add('alt'); });
      var line = hits.length === 0
        ? 'no sample matches (' + fmt(items.length) + ' in all)'
        : 'samples ' + fmt(from + 1) + '–' + fmt(from + shown.length) + ' of ' + fmt(hits.length) +
          (hits.length < items.length ? ' matching (' + fmt(items.length) + ' in all)' : '') +
          ' · page ' + fmt(page + 1) + ' of ' + fmt(pages);
      Array.prototype.forEach.call(pagers, function (p) {
        p.querySelector('.sample-count').textContent = line;
        p.querySelector('[data-page="first"]').disabled = page === 0;
        p.querySelector('[data-page="prev"]').disabled = page === 0;
        p.querySelector('[data-page="next"]').disabled = page >= pages - 1;
        p.querySelector('[data-page="last"]').disabled = page >= pages - 1;
      });
      empty.hidden = hits.length > 0;
      bottom.hidden = shown.length < 20;
    };

    var refilter = function () { page = 0; render(); };
    form.addEventListener('input', refilter);
    form.addEventListener('change', refilter);
    form.addEventListener('submit', function (e) { e.preventDefault(); });
    form.addEventListener('reset', function () { setTimeout(refilter, 0); });
    Array.prototype.forEach.call(pagers, function (p) {
      p.addEventListener('click', function (e) {
        var to = e.target.getAttribute && e.target.getAttribute('data-page');
        if (!to) return;
        page = to === 'first' ? 0 : to === 'prev' ? page - 1 : to === 'next' ? page + 1 : pages - 1;
        render();
        if (p.parentNode === bottom) controls.scrollIntoView();
      });
    });
    controls.hidden = false;
    render();
  }

  // Figures: a click shows the embedded file at its full size; Escape or another click closes it.
  var box = document.getElementById('lightbox');
  if (box) {
    var big = box.querySelector('img');
    var close = function () { box.hidden = true; big.removeAttribute('src'); };
    Array.prototype.forEach.call(document.querySelectorAll('a.zoom'), function (a) {
      a.addEventListener('click', function (e) {
        if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
        e.preventDefault();
        var img = a.querySelector('img');
        big.src = img.src;
        big.alt = img.alt;
        var w = Number(img.getAttribute('data-full-width'));
        big.style.width = w > 0 ? w + 'px' : '96vw';
        box.hidden = false;
        box.focus();
      });
    });
    box.addEventListener('click', close);
    document.addEventListener('keydown', function (e) { if (e.key === 'Escape' && !box.hidden) close(); });
  }
})();`;

/** The CSP source that allows exactly CLIENT_SCRIPT: 'sha256-…'. */
export function clientScriptSource(): string {
  return `'sha256-${createHash('sha256').update(CLIENT_SCRIPT, 'utf8').digest('base64')}'`;
}
