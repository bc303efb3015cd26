// What a projector screen must not do (tests/e2e/test_three_laws_projector_fit.py): anything of
// <main> outside the viewport, or cut off by a box that hides or scrolls its overflow.
// Screen-reader-only text (clipped to 1 px) is skipped. Returns what it found, in words.
() => {
  const width = window.innerWidth, height = window.innerHeight, found = [];
  const name = (el) => el.tagName.toLowerCase() + (el.className ? "." + String(el.className).trim().split(/\s+/).join(".") : "");
  for (const el of document.querySelectorAll("main, main *")) {
    if (el.closest(".visually-hidden, [hidden]")) continue;
    const style = getComputedStyle(el);
    if (style.display === "none" || style.visibility === "hidden") continue;
    const box = el.getBoundingClientRect();
    if (box.width <= 1 || box.height <= 1) continue; // nothing drawn, or screen-reader-only
    if (box.right > width + 1 || box.bottom > height + 1 || box.left < -1 || box.top < -1) {
      found.push(`${name(el)} at ${Math.round(box.left)},${Math.round(box.top)}-${Math.round(box.right)},${Math.round(box.bottom)}`);
    }
    const clips = /(hidden|auto|scroll|clip)/.test(style.overflowX + style.overflowY);
    if (clips && (el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1)) {
      found.push(`${name(el)} cuts off its content (${el.scrollWidth}x${el.scrollHeight} in ${el.clientWidth}x${el.clientHeight})`);
    }
  }
  const root = document.documentElement;
  if (root.scrollHeight > root.clientHeight + 1) found.push(`the page scrolls (${root.scrollHeight} > ${root.clientHeight})`);
  return found;
}
