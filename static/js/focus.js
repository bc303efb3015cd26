// Keeps keyboard focus through htmx swaps. A swap replaces the region that held the focused
// element (a move button, the question form, the teach-back form, or a poll redrawing the table),
// which drops focus onto <body>: a keyboard or screen reader user is thrown back to the top.
// After the swap, focus goes to the new version of the same control if there is one (same id,
// or same name and value, or same label), else to the region's first action, else its heading.
// With morphing swaps the focused element survives and this does nothing.
(function () {
  "use strict";
  var ACTIONS = "button:not([disabled]), [href], input:not([type=hidden]):not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex='-1'])";

  function focused() {
    var el = document.activeElement;
    return el && el !== document.body && el !== document.documentElement ? el : null;
  }

  function keyOf(el) {
    return {
      id: el.id || "",
      tag: el.tagName,
      name: el.getAttribute("name") || "",
      value: el.tagName === "INPUT" && (el.type === "radio" || el.type === "checkbox") ? el.value : "",
      text: (el.textContent || "").replace(/\s+/g, " ").trim(),
    };
  }

  function sameControl(root, key) {
    if (key.id) {
      var byId = document.getElementById(key.id);
      if (byId && root.contains(byId)) return byId;
    }
    var candidates = root.querySelectorAll(key.tag);
    for (var i = 0; i < candidates.length; i++) {
      var c = candidates[i];
      if (c.disabled) continue;
      var k = keyOf(c);
      if (k.name === key.name && k.value === key.value && k.text === key.text) return c;
    }
    return null;
  }

  function focusIn(root, key) {
    var target = sameControl(root, key) || root.querySelector(ACTIONS);
    if (!target) {
      // live.js keeps this tabindex while the heading has focus, though redraws lack it.
      target = root.querySelector("h1, h2, h3") || root;
      if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
    }
    target.focus({ preventScroll: true });
    if (target.scrollIntoView) target.scrollIntoView({ block: "nearest" });
  }

  // Kept per request (htmx gives each its own xhr): a poll or a stream's refetch that runs while
  // a button's request is in flight must not make that request forget the pressed button.
  var pressed = new WeakMap();
  var pending = new WeakMap();
  // The last control pressed: a button's own answer may swap nothing (the stream's refetch
  // draws the change), so any redraw that finds focus dropped puts it back from this.
  var lastPressed = null;

  // Before htmx disables the pressed button (data-hx-disabled-elt), which blurs it. The key is
  // taken now, because a redraw arriving first may replace the button itself.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var el = focused();
    if (el && event.detail.xhr) {
      lastPressed = keyOf(el);
      pressed.set(event.detail.xhr, lastPressed);
    }
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    var xhr = event.detail.xhr;
    if (!target || !xhr) return;
    var el = focused();
    var key = el && target.contains(el) ? keyOf(el) : !el ? pressed.get(xhr) || lastPressed : null;
    if (key) pending.set(xhr, { target: target, id: target.id, key: key });
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    var xhr = event.detail.xhr;
    var p = xhr && pending.get(xhr);
    if (!p) return;
    pending.delete(xhr);
    lastPressed = null;
    var now = focused();
    if (now && now.isConnected && !now.disabled) return;
    var root = p.target.isConnected ? p.target : p.id ? document.getElementById(p.id) : null;
    if (root) focusIn(root, p.key);
  });
})();
