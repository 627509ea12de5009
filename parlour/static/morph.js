// Update the DOM to match new markup while keeping the elements that stay, so that
// focus is kept and CSS transitions animate what changed. Children are matched by id
// when they have one, otherwise by position and tag.

export function morphInto(container, html) {
  const template = document.createElement("template");
  template.innerHTML = html;
  morphChildren(container, template.content);
}

// Apply a patch of the board (see parlour/server/patch.py). The elements `gone` are
// removed. Each part is a whole element, which is morphed into the element with its id
// (or, when none has it yet, added to its run), or a lone opening tag, whose attributes
// replace that element's. Then each run of sibling elements in `orders` is put in its
// new order. False if an element is missing or unlike its part, or the elements of a run
// are not siblings: show the view whole then.
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
  const batches = { html: [], svg: [] };
  for (const part of parts) {
    const [, tag, id] = /^<([\w:-]+)[^>]*?\sid="([^"]+)"/.exec(part) || [];
    const target = id ? document.getElementById(id) : null;
    if (!target && inRuns.has(id)) { adding.set(id, part); continue; }
    if (!target || !container.contains(target)) return false;
    const inSvg = target instanceof SVGElement;
    if (part.endsWith(`</${tag}>`)) { batches[inSvg ? "svg" : "html"].push([target, part]); continue; }
    const [opening] = parse([part], inSvg);
    if (!sameElement(target, opening)) return false;
    copyAttributes(target, opening);
  }
  for (const [space, batch] of Object.entries(batches)) {
    if (batch.length === 0) continue;
    const parsed = parse(batch.map(([, part]) => part), space === "svg");
    // the parser may move or drop markup that is out of place: then show the view whole
    if (!batch.every(([target], i) => sameElement(target, parsed[i]))) return false;
    batch.forEach(([target], i) => morphNode(target, parsed[i]));
  }
  return orders.every((ids) => reorder(container, ids, adding));
}

// Put a run of sibling elements in the order of `ids`, adding the new ones from their
// parts. Walking the order, each element out of place is moved before the next one in
// place, never the one that stays: a moved element restarts its CSS transitions, and a
// card picked from a pyramid to the top of a pile (the end of the run) must keep its
// element to fly there. Each element moves with the line break before it, so the board
// stays the very markup a whole view gives.
function reorder(container, ids, adding) {
  const present = ids.map((id) => document.getElementById(id));
  const kept = present.filter(Boolean);
  const parent = kept.length > 0 ? kept[0].parentNode : null;
  if (!parent || !container.contains(parent) || kept.some((e) => e.parentNode !== parent)) return false;
  const added = ids.filter((id, i) => !present[i]);
  if (!added.every((id) => adding.has(id))) return false;
  const inSvg = parent instanceof SVGElement && parent.localName !== "foreignObject";
  const created = added.length > 0 ? parse(added.map((id) => adding.get(id)), inSvg) : [];
  if (!created.every((element, i) => element.id === added[i])) return false;
  const inRun = new Set(kept);
  let first = kept[0];
  while (inRun.has(first.previousElementSibling)) first = first.previousElementSibling;
  // the next element goes before this: the line break before the element now in its
  // place (or, past the run, whatever follows the run)
  let next = first.previousSibling;
  if (!(next instanceof Text)) return false;
  for (const element of present) {
    const placing = element || created.shift();
    if (next && next.nextSibling === placing) { next = placing.nextSibling; continue; }
    const lineBreak = element ? element.previousSibling : document.createTextNode("\n");
    if (!(lineBreak instanceof Text)) return false;
    parent.insertBefore(lineBreak, next);
    parent.insertBefore(placing, next);
  }
  return true;
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
