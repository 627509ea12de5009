// Update the DOM to match new markup while keeping the elements that stay, so that
// focus is kept and CSS transitions animate what changed. Children are matched by id
// when they have one, otherwise by position and tag.

export function morphInto(container, html) {
  const template = document.createElement("template");
  template.innerHTML = html;
  morphChildren(container, template.content);
}

// Apply a patch of the board (see parlour/server/patch.py). The elements `gone` are
// removed. Each run of sibling elements in `orders` is put in its new order. Then each
// part, a whole element, is morphed into the element with its id (or, when none has it
// yet, added to its run), or a lone opening tag, whose attributes replace that element's.
// False if an element is missing or unlike its part, or the elements of a run are not
// siblings: show the view whole then.
// Whole elements are parsed together, one parse per namespace: a parse costs the same
// for one cell as for fifty.
export function patchParts(container, parts, orders = [], gone = []) {
  for (const id of gone) {
    const element = document.getElementById(id);
    if (!element || !container.contains(element)) return false;
    removeLine(element);
  }
  const inRuns = new Set(orders.flat());
  const adding = new Map();  // id -> the part of an element new to the board
  const openings = [];  // [element, its new opening tag]
  const batches = { html: [], svg: [] };
  for (const part of parts) {
    const [, tag, id] = /^<([\w:-]+)[^>]*?\sid="([^"]+)"/.exec(part) || [];
    const target = id ? document.getElementById(id) : null;
    if (!target && inRuns.has(id)) { adding.set(id, part); continue; }
    if (!target || !container.contains(target)) return false;
    const inSvg = parsesAsSvg(target.parentNode);
    if (part.endsWith(`</${tag}>`)) { batches[inSvg ? "svg" : "html"].push([target, part]); continue; }
    const [opening] = parse([part], inSvg);
    if (!sameElement(target, opening)) return false;
    openings.push([target, opening]);
  }
  const morphs = [], replacing = [];
  for (const [space, batch] of Object.entries(batches)) {
    if (batch.length === 0) continue;
    const parsed = parse(batch.map(([, part]) => part), space === "svg");
    // the parser may move or drop markup that is out of place: then show the view whole
    if (!batch.every(([target], i) => parsed[i]?.id === target.id)) return false;
    // an element that changed its tag (an empty cell that became a tile) is replaced
    batch.forEach(([target], i) => sameElement(target, parsed[i])
      ? morphs.push([target, parsed[i]]) : replacing.push([target, parsed[i]]));
  }
  const moved = new Set();
  if (!orders.every((ids) => reorder(container, ids, adding, moved))) return false;
  // An element moved has lost its style; worked out again as it was before this view
  // (one style pass, of what has changed so far), its change from there is a transition,
  // so a card moved to the top of a pile still flies there.
  const changing = [...openings, ...morphs].find(([target]) => moved.has(target));
  if (changing) getComputedStyle(changing[0]).opacity;
  for (const [target, opening] of openings) copyAttributes(target, opening);
  for (const [target, source] of morphs) morphNode(target, source);
  for (const [target, source] of replacing) replaceKeepingFocus(target, source);
  return true;
}

// `element`, of another tag, in place of `old` (or before `before`, a sibling): the
// keyboard's cursor stays on it.
function replaceKeepingFocus(old, element, before = old) {
  const focused = document.activeElement === old;
  old.parentNode.insertBefore(element, before);
  old.remove();
  if (focused) element.focus({ preventScroll: true });
}

// Whether markup put in `parent` is parsed as SVG: an <svg> in an HTML element is HTML's
// own (the parser makes it an SVG element), its children are SVG.
function parsesAsSvg(parent) {
  return parent instanceof SVGElement && parent.localName !== "foreignObject";
}

// Put a run of sibling elements in the order of `ids`, adding the new ones from their
// parts and noting in `moved` those it moves. The longest subsequence already in order
// stays; each of the others moves, with the line break before it, to just after the one
// before it in the new order (so a card picked from a pyramid to the top of a pile moves
// alone, not every card after it): the board stays the very markup a whole view gives.
function reorder(container, ids, adding, moved) {
  const present = ids.map((id) => document.getElementById(id));
  const kept = present.filter(Boolean);
  const parent = kept.length > 0 ? kept[0].parentNode : null;
  if (!parent || !container.contains(parent) || kept.some((e) => e.parentNode !== parent)) return false;
  const added = ids.filter((id, i) => !present[i]);
  if (!added.every((id) => adding.has(id))) return false;
  const created = added.length > 0 ? parse(added.map((id) => adding.get(id)), parsesAsSvg(parent)) : [];
  if (!created.every((element, i) => element.id === added[i])) return false;
  const staying = inOrder(kept, parent);
  const firstStaying = staying.values().next().value;
  let previous = null;  // the element placed last
  for (const element of present) {
    const placing = element || created.shift();
    if (staying.has(placing)) { previous = placing; continue; }
    const lineBreak = element ? element.previousSibling : document.createTextNode("\n");
    if (!(lineBreak instanceof Text)) return false;
    // after the one before it; the first of the run goes before the first that stays
    const anchor = previous ? previous.nextSibling : firstStaying.previousSibling;
    if (!previous && !(anchor instanceof Text)) return false;
    if (element && (anchor === lineBreak || placing.nextSibling === anchor)) {
      previous = placing;  // already just where it goes
      continue;
    }
    parent.insertBefore(lineBreak, anchor);
    parent.insertBefore(placing, anchor);
    if (element) moved.add(element);
    previous = placing;
  }
  return true;
}

// The longest run of `elements` (in their new order) that is already in that order in
// `parent`: patience sorting over their present places.
function inOrder(elements, parent) {
  const place = new Map([...parent.childNodes].map((node, i) => [node, i]));
  const tails = [];  // tails[k]: index of the smallest last place of a run k + 1 long
  const before = new Array(elements.length).fill(-1);
  elements.forEach((element, i) => {
    const at = place.get(element);
    let low = 0, high = tails.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (place.get(elements[tails[middle]]) < at) low = middle + 1; else high = middle;
    }
    if (low > 0) before[i] = tails[low - 1];
    tails[low] = i;
  });
  const staying = [];
  for (let i = tails[tails.length - 1]; i !== undefined && i >= 0; i = before[i]) staying.push(elements[i]);
  return new Set(staying.reverse());
}

// An element gone from its run, with the line break before it.
function removeLine(element) {
  if (element.previousSibling instanceof Text) element.previousSibling.remove();
  element.remove();
}

function sameElement(target, incoming) {
  return incoming !== undefined && incoming.localName === target.localName && incoming.id === target.id;
}

// Elements from markup, parsed as SVG or as HTML.
function parse(elements, inSvg) {
  const template = document.createElement("template");
  const html = elements.join("");
  template.innerHTML = inSvg ? `<svg xmlns="http://www.w3.org/2000/svg">${html}</svg>` : html;
  const root = inSvg ? template.content.firstElementChild : template.content;
  return [...root.children];
}

function morphChildren(target, source) {
  if (!target.firstElementChild && !source.firstElementChild) { morphText(target, source); return; }
  const byId = new Map();
  for (const child of target.children) if (child.id) byId.set(child.id, child);
  let cursor = target.firstChild;
  for (const incoming of [...source.childNodes]) {
    let match = null;
    if (incoming.nodeType === Node.ELEMENT_NODE && incoming.id) {
      match = byId.get(incoming.id) || null;
      if (match && !sameElement(match, incoming)) {  // a new tag: a new element
        if (match === cursor) cursor = cursor.nextSibling;
        replaceKeepingFocus(match, incoming, cursor);
        continue;
      }
    } else if (cursor && sameKind(cursor, incoming) && !(cursor.id)) {
      match = cursor;
    }
    if (match) {
      if (match !== cursor) target.insertBefore(match, cursor);
      else cursor = cursor.nextSibling;
      if (!match.isEqualNode(incoming)) morphNode(match, incoming);  // most cells stay as they are
    } else {
      target.insertBefore(incoming, cursor);
    }
  }
  while (cursor) { const next = cursor.nextSibling; cursor.remove(); cursor = next; }
}

function sameKind(a, b) {
  return a.nodeType === b.nodeType && a.nodeName === b.nodeName;
}

function morphNode(target, source) {
  if (target.nodeType !== Node.ELEMENT_NODE) {
    if (target.nodeValue !== source.nodeValue) target.nodeValue = source.nodeValue;
    return;
  }
  copyAttributes(target, source);
  morphChildren(target, source);
}

// A leaf (a cell, a label): its text alone. A text node kept is changed in place, which
// costs the page less than a new one; a whole-board flood changes hundreds of these.
function morphText(target, source) {
  const text = source.textContent;
  if (target.textContent === text) return;
  const only = target.firstChild;
  if (text && only && only === target.lastChild && only.nodeType === Node.TEXT_NODE) only.nodeValue = text;
  else target.textContent = text;
}

// By name: reading `attributes` makes an Attr object per attribute, which a flood of
// hundreds of cells pays for twice, in time and in garbage.
function copyAttributes(target, source) {
  for (const name of target.getAttributeNames()) {
    if (!source.hasAttribute(name)) target.removeAttribute(name);
  }
  for (const name of source.getAttributeNames()) {
    const value = source.getAttribute(name);
    if (target.getAttribute(name) !== value) target.setAttribute(name, value);
  }
}
