// "Open in Perfetto" (docs/perfetto.md): only in a report written with --embed-perfetto.
// Nothing leaves the page until the button is clicked; then ui.perfetto.dev (the button's
// data-target) opens in a new window and gets the embedded step file by Perfetto's
// documented handshake: 'PING' until it answers 'PONG', then {perfetto: {buffer, title}}.
(function () {
  'use strict';
  var button = document.getElementById('open-perfetto');
  var data = document.getElementById('perfetto-data');
  var status = document.getElementById('perfetto-status');
  if (!button || !data) return;
  button.hidden = false;
  function say(text) { if (status) status.textContent = text; }
  button.addEventListener('click', function () {
    var target = button.getAttribute('data-target');
    var origin = new URL(target, location.href).origin;
    var win = window.open(target);
    if (!win) { say('The browser blocked the new window: allow pop-ups for this page.'); return; }
    var buffer = new TextEncoder().encode(data.textContent).buffer;
    var tries = 0;
    var timer = setInterval(function () {
      // Two minutes: the UI loads once, then answers at once.
      if (++tries > 2400) { clearInterval(timer); window.removeEventListener('message', onMessage); say('Perfetto did not answer.'); return; }
      win.postMessage('PING', origin);
    }, 50);
    function onMessage(e) {
      if (e.source !== win || e.data !== 'PONG') return;
      clearInterval(timer);
      window.removeEventListener('message', onMessage);
      win.postMessage({perfetto: {buffer: buffer, title: button.getAttribute('data-title'), fileName: 'tracediff-step.json'}}, origin);
      say('Sent to ' + origin + '.');
    }
    window.addEventListener('message', onMessage);
    say('Opening ' + origin + '\u2026');
  });
})();
