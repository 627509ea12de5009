// Update the DOM to match new markup while keeping the elements that stay, so that
// focus is kept and CSS transitions animate what changed. Children are matched by id
// when they have one, otherwise by position and tag.

export function morphInto(container, html) {
  const template = document.createElement("template");
  template.innerHTML = html;
  morphChildren(container, template.content);
}

// Apply the parts of a view that changed (see parlour/server/patch.py): each is a whole
// element, which is morphed into the element with its id, or a lone opening tag, whose
// attributes replace that element's. False if an element is missing or unlike its part:
// show the view whole then.
// Whole elements are parsed together, one parse per namespace: a parse costs the same
// for one cell as for fifty.
export function patchParts(container, parts) {
  const batches = { html: [], svg: [] };
  for (const part of parts) {
    const [, tag, id] = /^<([\w:-]+)[^>]*?\sid="([^"]+)"/.exec(part) || [];
    const target = id ? document.getElementById(id) : null;
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
  return true;
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
