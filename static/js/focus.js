// Keeps keyboard focus through htmx swaps. A swap replaces the region that held the focused
// element (a move button, the question form, the teach-back form, or a poll redrawing the table),
// which drops focus onto <body>: a keyboard or screen reader user is thrown back to the top.
// After the swap, focus goes to the new version of the same control if there is one (same id,
// or same name and value, or same label), else to the region's first action, else its heading.
// With morphing swaps the focused element survives and this does nothing.
(function () {
  "use strict";
  var ACTIONS = "button:not([disabled]), [href], input:not([type=hidden]):not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex='-1'])";
  var requested = null;
  var pending = null;

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
      target = root.querySelector("h1, h2, h3") || root;
      if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
    }
    target.focus({ preventScroll: true });
    if (target.scrollIntoView) target.scrollIntoView({ block: "nearest" });
  }

  // Before htmx disables the pressed button (data-hx-disabled-elt), which blurs it.
  document.addEventListener("htmx:beforeRequest", function () {
    requested = focused();
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    var el = focused() || (requested && requested.isConnected ? requested : null);
    var target = event.detail.target;
    pending = el && target && target.contains(el) ? { target: target, id: target.id, key: keyOf(el) } : null;
  });
  document.addEventListener("htmx:afterSettle", function () {
    var p = pending;
    pending = null;
    requested = null;
    if (!p) return;
    var now = focused();
    if (now && now.isConnected && !now.disabled) return;
    var root = p.target.isConnected ? p.target : p.id ? document.getElementById(p.id) : null;
    if (root) focusIn(root, p.key);
  });
})();
