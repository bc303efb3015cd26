// LTI pages (templates/lti/): the iframe cookie check, the deep-linking return and the end of
// Dynamic Registration. Without JavaScript each page still offers its buttons.
(function () {
  "use strict";

  var check = document.getElementById("lti-cookie-check");
  if (check) {
    // A cookie written here comes back only if the browser keeps cookies in this frame (as
    // BotBench's own: partitioned, classroom/lti/frame.py).
    var name = "botbench_lti_check";
    var attributes = "; path=/; SameSite=None; Secure; Partitioned";
    document.cookie = name + "=1" + attributes;
    var kept = document.cookie.indexOf(name + "=1") !== -1;
    document.cookie = name + "=; max-age=0" + attributes;
    if (kept) {
      window.location.replace(check.getAttribute("data-continue-url"));
    } else {
      document.getElementById("lti-checking").hidden = true;
      document.getElementById("lti-blocked").hidden = false;
      document.getElementById("lti-continue").hidden = true;
      document.getElementById("lti-new-window").focus();
    }
  }

  var form = document.getElementById("lti-auto-submit");
  if (form) {
    form.submit();
  }

  if (document.getElementById("lti-registered")) {
    // LTI Dynamic Registration: tell the LMS it may close its registration window.
    (window.opener || window.parent).postMessage({ subject: "org.imsglobal.lti.close" }, "*");
  }
})();
