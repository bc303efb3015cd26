// A button or form whose request fails says so. htmx swaps no error answer and fires only an
// event: without this, a tap the server refused (a page open since the person signed in again
// in another tab holds a CSRF token that is no longer theirs) or that never arrived did nothing
// anyone could see. The words are the page's own (#request-failed-words, in its language); the
// next request that goes through takes them away. A poll's GET is left to live.js, which
// shows a live screen's connection instead.
(function () {
  "use strict";

  function box() {
    return document.getElementById("request-failed");
  }

  function failed(event) {
    var config = event.detail && event.detail.requestConfig;
    if (!config || config.verb === "get") return;
    var words = document.getElementById("request-failed-words");
    var target = box();
    if (words && target) target.replaceChildren(words.content.cloneNode(true));
  }

  document.addEventListener("htmx:responseError", failed);
  document.addEventListener("htmx:sendError", failed);
  document.addEventListener("htmx:afterRequest", function (event) {
    var config = event.detail && event.detail.requestConfig;
    var target = box();
    if (event.detail.successful && config && config.verb !== "get" && target) {
      target.replaceChildren();
    }
  });
})();
