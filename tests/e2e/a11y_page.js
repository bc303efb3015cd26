// Injected into every page of the browser tests by tests/e2e/a11y.py (after axe-core itself).
(() => {
  if (window.top !== window || !window.axe || location.protocol === "about:") return;
  const options = {runOnly: {type: "tag", values: __TAGS__}, resultTypes: ["violations"]};
  // Radios and checkboxes are at least 24 x 24 px (WCAG 2.2's target size, asked of the rubric
  // levels and the Error calls).
  const smallTargets = () => [...document.querySelectorAll("input[type=radio], input[type=checkbox]")]
    .filter((el) => el.getClientRects().length && getComputedStyle(el).visibility !== "hidden")
    .map((el) => [el, el.getBoundingClientRect()])
    .filter(([, r]) => r.width < 23.5 || r.height < 23.5)
    .map(([el, r]) => `input[name=${el.name}][value=${el.value}] is ${r.width}x${r.height}`);
  let queue = Promise.resolve();
  // The look of a page: its path and the kinds of element on it (tag and classes), whatever
  // their text, number and order. A state of a look already checked is not checked again, so a
  // game's hundred moves cost a check for each new kind of screen, not one a move.
  const signature = () => {
    const kinds = new Set();
    for (const el of document.querySelectorAll("*")) kinds.add(el.tagName + "." + [...el.classList].sort().join("."));
    return location.pathname.replace(/\d+/g, "#") + "|" + [...kinds].sort().join(" ");
  };
  // A phone's page must not scroll sideways at 320 px wide (WCAG 1.4.10) nor with its text at
  // 200 % on a 390 px phone (1.4.4): the page is laid out again in a hidden frame at each.
  const overflow = async (html, width, bigText) => {
    const frame = document.createElement("iframe");
    frame.setAttribute("sandbox", "allow-same-origin");
    frame.setAttribute("aria-hidden", "true");
    frame.tabIndex = -1;
    frame.style.cssText = `position:absolute;left:-20000px;top:0;width:${width}px;height:700px;border:0`;
    const extra = `<base href="${location.href}">`;
    // Without its scripts: the frame is sandboxed, and the layout is what is measured.
    frame.srcdoc = html.replace("<head>", "<head>" + extra)
      .replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, "").replace(/ autofocus(="[^"]*")?/g, "")
      .replace(/ style="[^"]*"/g, "");  // set by scripts; as markup the CSP would refuse them
    const loaded = new Promise((resolve) => { frame.onload = resolve; });
    document.body.appendChild(frame);
    await loaded;
    const doc = frame.contentDocument;
    // 200 % text as a browser's text size setting gives it (a style set from script: the
    // site's Content Security Policy forbids inline style elements).
    if (bigText) doc.documentElement.style.setProperty("font-size", "200%", "important");
    const over = doc.documentElement.scrollWidth - width;
    let culprits = [];
    if (over > 0) {
      // Where the overflow starts: elements past the edge inside a parent that is not.
      const right = (el) => el.getBoundingClientRect().right;
      culprits = [...doc.querySelectorAll("body *")]
        .filter((el) => right(el) > width + 0.5 && el.parentElement &&
          (right(el.parentElement) <= width + 0.5 || ![...el.children].some((c) => right(c) > width + 0.5)))
        .slice(0, 5);
      if (!culprits.length) {
        // Text wider than its box (a long word) widens the page but not its element's box.
        culprits = [...doc.querySelectorAll("body *")].filter((el) => el.scrollWidth > el.clientWidth + 0.5 &&
          getComputedStyle(el).overflowX === "visible").slice(0, 5);
      }
      culprits = culprits.map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join(".")} "${el.textContent.trim().slice(0, 30)}" right=${Math.round(right(el))}`);
    }
    frame.remove();
    return over > 0 ? {over, culprits} : null;
  };
  const reflow = async (html) => {
    const found = [];
    for (const [id, width, bigText] of [["reflow-320", 320, false], ["text-200", 390, true]]) {
      const result = await overflow(html, width, bigText);
      if (result) found.push({id, impact: "serious",
        help: `The page is ${result.over}px wider than a ${width}px screen${bigText ? " at 200% text" : ""}`,
        nodes: result.culprits});
    }
    return found;
  };
  const check = (reason) => {
    queue = queue.then(async () => {
      // A test's step can come before the page's stylesheets are in (a busy machine serves them
      // late, and an element counts as visible before they apply): checked then, a page is
      // its unstyled self. Each look is checked once the document has loaded.
      if (document.readyState !== "complete") {
        await new Promise((resolve) => {
          addEventListener("load", resolve, {once: true});
          setTimeout(resolve, 30000);  // a bound: a page that never finishes loading is checked anyway
        });
      }
      if (!document.body) return;
      const seen = await window.__botbenchSeen(signature());
      if (seen) return;
      const html = "<!DOCTYPE html>\n" + document.documentElement.outerHTML;
      let violations;
      try {
        const result = await axe.run(document, options);
        violations = result.violations.map((v) => ({
          id: v.id, impact: v.impact, help: v.help,
          nodes: v.nodes.slice(0, 6).map((n) => n.target.join(" ") + " :: " +
            (n.failureSummary || "").replace(/\s+/g, " ")),
        }));
      } catch (error) {
        violations = [{id: "axe-error", impact: "critical", help: String(error), nodes: []}];
      }
      const small = smallTargets();
      if (small.length) violations.push({id: "target-size-24", impact: "serious",
        help: "Radio and checkbox targets must be at least 24 x 24 px", nodes: small.slice(0, 6)});
      if (innerWidth <= 420) violations.push(...(await reflow(html)));
      await window.__botbenchReport({url: location.href, reason, html, violations});
    }).catch(() => {});
    return queue;
  };
  window.__botbenchCheck = check;
  addEventListener("load", () => check("load"));
  document.addEventListener("htmx:afterSettle", () => check("swap"));
})();
