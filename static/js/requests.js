// A button or form whose request fails says so. htmx swaps no error answer and fires only an
// event: without this, a tap the server refused (a page open since the person signed in again
// in another tab holds a CSRF token that is no longer theirs) or that never arrived did nothing
// anyone could see. The words are the page's own (#request-failed-words, in its language); the
// next request that goes through takes them away. A poll's GET is left to live.js, which
// shows a live screen's connection instead.
(function () {
  "use strict";

  // After a request a person made (not a poll's GET): the words in the alert if it failed, none
  // if it went through.
  function say(event, failed) {
    var config = event.detail && event.detail.requestConfig;
    var box = document.getElementById("request-failed");
    if (!config || config.verb === "get" || !box) return;
    if (!failed) return box.replaceChildren();
    var words = document.getElementById("request-failed-words");
    if (words) box.replaceChildren(words.content.cloneNode(true));
  }

  document.addEventListener("htmx:responseError", function (event) {
    say(event, true);
  });
  document.addEventListener("htmx:sendError", function (event) {
    say(event, true);
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.successful) say(event, false);
  });
})();
