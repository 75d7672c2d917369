// WCAG 2 contrast of the page's visible text, computed in the page (see check.mjs): for every
// element with its own text, its colour (times the opacity of it and its ancestors) against the
// first opaque background behind it. AA asks 4.5:1, or 3:1 for large text (24 px, or 18.66 px
// bold). Returns the texts below their threshold.
export function lowContrast() {
  const parse = (c) => (c.match(/[\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const background = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3] === 1)) return c.slice(0, 3);
      if (c.length === 4 && c[3] > 0.5) return c.slice(0, 3);   // near-opaque tints count as theirs
    }
    return [255, 255, 255];
  };
  const opacity = (el) => { let o = 1; for (let e = el; e; e = e.parentElement) o *= Number(getComputedStyle(e).opacity); return o; };
  const out = [];
  for (const el of document.querySelectorAll('body *')) {
    const own = Array.from(el.childNodes).some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || el.closest('option, script, style')) continue;
    const r = el.getBoundingClientRect();
    const s = getComputedStyle(el);
    if (!r.width || !r.height || s.visibility === 'hidden' || r.bottom < 0 || r.top > innerHeight) continue;
    const bg = background(el);
    const a = opacity(el);
    const fg = parse(s.color).slice(0, 3).map((v, i) => v * a + bg[i] * (1 - a));
    const [l1, l2] = [lum(fg), lum(bg)].sort((x, y) => y - x);
    const ratio = (l1 + 0.05) / (l2 + 0.05);
    const size = parseFloat(s.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(s.fontWeight) >= 700);
    if (ratio < (large ? 3 : 4.5)) out.push(`${el.textContent.trim().slice(0, 30)}: ${ratio.toFixed(2)}`);
  }
  return out;
}
