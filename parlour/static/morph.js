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
// attributes replace that element's. False if an element is missing: show it whole then.
export function patchParts(container, parts) {
  for (const part of parts) {
    const id = /\sid="([^"]+)"/.exec(part)?.[1];
    const target = id ? container.querySelector(`#${CSS.escape(id)}`) : null;
    if (!target) return false;
    const incoming = parseLike(target, part);
    if (!incoming) return false;
    if (part.endsWith(`</${incoming.localName}>`)) morphNode(target, incoming);
    else copyAttributes(target, incoming);
  }
  return true;
}

// Parse markup in the namespace of `target`'s parent, so that SVG stays SVG.
function parseLike(target, html) {
  const template = document.createElement("template");
  const inSvg = target instanceof SVGElement;
  template.innerHTML = inSvg ? `<svg xmlns="http://www.w3.org/2000/svg">${html}</svg>` : html;
  const root = inSvg ? template.content.firstElementChild : template.content;
  return root?.firstElementChild ?? null;
}

function morphChildren(target, source) {
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

function copyAttributes(target, source) {
  for (const { name } of [...target.attributes]) {
    if (!source.hasAttribute(name)) target.removeAttribute(name);
  }
  for (const { name, value } of source.attributes) {
    if (target.getAttribute(name) !== value) target.setAttribute(name, value);
  }
}
