// Live screens: the glue around htmx's SSE and morph extensions (the stream itself, its
// reconnects and the swaps are theirs).
//
// 1. Fallback rate. A screen's region polls every 10 s on its own. While its stream is not
//    heard from (not connected yet, cut off, or behind a proxy that buffers streams) it polls
//    at the old rate instead, 1.5 s, by firing `live:poll` on the stream's element.
// 2. Announcements. The swapped region marks what is worth saying with `data-announce`; the
//    text goes to the one persistent live region, #announcer, outside every swap, when it
//    changes.
// 3. Focus. A keyboard user who pressed a button in the region stays on that button's new
//    version after the swap, or on the region's first action when it is gone.
(function () {
  "use strict";
  var FAST_POLL_MS = 1500;
  // The server pings every 20 s; two missed pings means the stream is not really there.
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

  window.setInterval(function () {
    streams().forEach(function (elt) {
      var last = heard.get(elt) || 0;
      if (Date.now() - last > SILENCE_MS) {
        setState("down");
        htmx.trigger(elt, "live:poll");
      }
    });
  }, FAST_POLL_MS);

  // -- announcements ------------------------------------------------------------------------

  var said = null;

  function announceText() {
    var marker = document.querySelector(".live-stream [data-announce]");
    return marker ? marker.getAttribute("data-announce").trim() : null;
  }

  document.addEventListener("DOMContentLoaded", function () {
    // A group of moves the student opened (or closed) stays so when the region is redrawn:
    // the server draws its default, the person's choice wins.
    if (window.Idiomorph) {
      Idiomorph.defaults.callbacks.beforeAttributeUpdated = function (name, node) {
        return !(name === "open" && node.tagName === "DETAILS");
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

  // -- focus --------------------------------------------------------------------------------

  var pressed = null;

  // Only a button's POST counts: a poll answered meanwhile must not forget the press.
  document.addEventListener("htmx:configRequest", function (event) {
    if (event.detail.verb === "get") return;
    var active = document.activeElement;
    var region = document.getElementById("live");
    pressed = null;
    if (active && region && region.contains(active) && active.matches("button")) {
      pressed = active.textContent.trim();
    }
  });

  document.addEventListener("htmx:afterSettle", function (event) {
    var config = event.detail && event.detail.requestConfig;
    if (config && config.verb === "get") return;
    var region = document.getElementById("live");
    if (pressed === null || !region) return;
    var label = pressed;
    pressed = null;
    var active = document.activeElement;
    if (active && active !== document.body && region.contains(active)) return;
    var buttons = Array.prototype.slice.call(region.querySelectorAll("button:not([disabled])"));
    var same = buttons.filter(function (b) {
      return b.textContent.trim() === label;
    })[0];
    var target = same || buttons[0];
    if (target) {
      target.focus();
    } else {
      region.setAttribute("tabindex", "-1");
      region.focus();
    }
  });
})();
