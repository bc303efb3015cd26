// Live screens: the glue around htmx's SSE and morph extensions (the stream itself, its
// reconnects and the swaps are theirs).
//
// 1. Fallback rate. A screen's region polls slowly on its own (the `every` of its trigger,
//    classroom/templatetags/live_region.py). While its stream is not heard from (not connected
//    yet, cut off, or behind a proxy that buffers streams) it polls every FAST_POLL_MS instead,
//    by firing `live:poll` on the stream's element.
// 2. Announcements. The swapped region marks what is worth saying with `data-announce`; the
//    text goes to the one persistent live region, #announcer, outside every swap, when it
//    changes.
// 3. Answers to buttons that are gone. A tap's form can be morphed away while its request is
//    out (the stream's redraw of the region came first). htmx looks for the swap's extension
//    from the element that asked, and a detached form has lost the ancestor that names
//    `morph`: htmx would then put the whole answer inside #live, one region nested in another.
//    Such an answer replaces the region whole instead.
// Focus through swaps is focus.js's, for every swap on every page.
(function () {
  "use strict";
  var FAST_POLL_MS = 1500;
  // More than two of the server's pings (PING_SECONDS, games/views/stream.py) missed: the
  // stream is not really there.
  var SILENCE_MS = 45000;
  var heard = new WeakMap();

  function streams() {
    return document.querySelectorAll(".live-stream");
  }

  function setState(state) {
    document.documentElement.setAttribute("data-live-stream", state);
  }

  document.addEventListener("htmx:sseOpen", function (event) {
    var elt = event.target;
    var source = event.detail.source;
    var mark = function () {
      heard.set(elt, Date.now());
      setState("up");
    };
    ["hello", "ping", "changed"].forEach(function (name) {
      source.addEventListener(name, mark);
    });
  });

  function lost(event) {
    heard.delete(event.target);
    setState("down");
  }
  document.addEventListener("htmx:sseError", lost);
  document.addEventListener("htmx:sseClose", lost);

  // The server ends a device's stream with `gone` (the only event named in sse-close) when the
  // device was freed or its session closed. The screen's poll cannot tell: it answers from the
  // signed token and the table's version, which did not change. Loading the page again lets the
  // server say where the device stands (the join page's way back in).
  document.addEventListener("htmx:sseClose", function (event) {
    if (event.detail && event.detail.type === "message") window.location.reload();
  });

  window.setInterval(function () {
    streams().forEach(function (elt) {
      var last = heard.get(elt) || 0;
      if (Date.now() - last > SILENCE_MS) {
        setState("down");
        htmx.trigger(elt, "live:poll");
      }
    });
  }, FAST_POLL_MS);

  // -- answers to buttons that are gone ----------------------------------------------------

  document.addEventListener("htmx:beforeSwap", function (event) {
    var detail = event.detail;
    // detail.elt is where the event fires (the target); the element that asked is the request's.
    var asker = detail.requestConfig && detail.requestConfig.elt;
    if (!asker || asker.isConnected || !detail.target || !detail.target.isConnected) return;
    var swap =
      detail.swapOverride || asker.getAttribute("data-hx-swap") || asker.getAttribute("hx-swap") || "";
    if (swap.indexOf("morph") === 0) detail.swapOverride = "outerHTML";
  });

  // -- announcements ------------------------------------------------------------------------

  var said = null;

  function announceText() {
    var marker = document.querySelector(".live-stream [data-announce]");
    return marker ? marker.getAttribute("data-announce").trim() : null;
  }

  document.addEventListener("DOMContentLoaded", function () {
    // What the person did survives a redraw, though the server's drawing lacks it: a group of
    // moves they opened (or closed) stays so, and the tabindex focus.js gave a heading to hold
    // focus stays while it has focus (without it the browser drops focus onto <body>).
    if (window.Idiomorph) {
      Idiomorph.defaults.callbacks.beforeAttributeUpdated = function (name, node, change) {
        if (name === "open" && node.tagName === "DETAILS") return false;
        return !(name === "tabindex" && change === "remove" && node === document.activeElement);
      };
    }
    said = announceText();
    if (streams().length) setState("connecting");
  });

  document.addEventListener("htmx:afterSettle", function () {
    var text = announceText();
    if (text === null || text === said) return;
    said = text;
    var announcer = document.getElementById("announcer");
    if (announcer && text) announcer.textContent = text;
  });
})();
