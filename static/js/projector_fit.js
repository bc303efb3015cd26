// The projector's game pages, fitted to the screen. Its text is 28 px at 1920x1080 (read from
// the back of the room); where a page's content does not fit at that size, something has to give.
// The grid of every table first shows its cards' category letters alone, the names staying for
// screen readers (the phones and the one-table projector show them in full). Then, on any
// projector page (the grid, or a 3 Laws table in its last round with many Error calls), the
// type is made smaller step by step (`--fit`, projector.css) until nothing is cut off: smaller
// type beats text under the screen's edge. Checked when the page loads, after every redraw and
// when the window changes size; the full size is put back first, and the check reads the
// layout before the page is painted again, so nothing flickers. Below 48rem (a phone) the page
// scrolls instead.
(function () {
  "use strict";
  var LETTERS = "grid-letters";
  var STEPS = [0.94, 0.88, 0.82, 0.76, 0.7, 0.64];
  var projector = window.matchMedia("(min-width: 48rem)");

  function overflows(root) {
    return root.scrollHeight > root.clientHeight || root.scrollWidth > root.clientWidth;
  }

  function fit() {
    var root = document.documentElement;
    root.classList.remove(LETTERS);
    root.style.removeProperty("--fit");
    if (!projector.matches || !overflows(root)) return;
    if (document.querySelector(".table-grid")) {
      root.classList.add(LETTERS);
      if (!overflows(root)) return;
    }
    for (var i = 0; i < STEPS.length && overflows(root); i++) {
      root.style.setProperty("--fit", String(STEPS[i]));
    }
  }

  document.addEventListener("DOMContentLoaded", fit);
  document.addEventListener("htmx:afterSettle", fit);
  window.addEventListener("resize", fit);
})();
