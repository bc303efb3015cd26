// The projector grid, fitted to the screen. Its text never goes under 28 px at 1920x1080 (read
// from the back of the room), so its size cannot give way: what a bench shows does. Each card
// on a bench shows its category's letter and its name while every table fits on the screen;
// when they do not (six tables of full benches, or long Spanish names), the grid shows the
// letters alone, the names staying for screen readers (the phones and the one-table projector
// show them in full). Checked when the page loads, after every redraw and when the window
// changes size; the names are put back first, and the check reads the layout before the page
// is painted again, so nothing flickers. Below 48rem (a phone) the page scrolls instead.
(function () {
  "use strict";
  var LETTERS = "grid-letters";
  var projector = window.matchMedia("(min-width: 48rem)");

  function fit() {
    var root = document.documentElement;
    root.classList.remove(LETTERS);
    if (!projector.matches || !document.querySelector(".table-grid")) return;
    if (root.scrollHeight > root.clientHeight) root.classList.add(LETTERS);
  }

  document.addEventListener("DOMContentLoaded", fit);
  document.addEventListener("htmx:afterSettle", fit);
  window.addEventListener("resize", fit);
})();
