// Update the DOM to match new markup while keeping the elements that stay, so that
// focus is kept and CSS transitions animate what changed. Children are matched by id
// when they have one, otherwise by position and tag.

export function morphInto(container, html) {
  const template = document.createElement("template");
  template.innerHTML = html;
  morphChildren(container, template.content);
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
  for (const { name } of [...target.attributes]) {
    if (!source.hasAttribute(name)) target.removeAttribute(name);
  }
  for (const { name, value } of source.attributes) {
    if (target.getAttribute(name) !== value) target.setAttribute(name, value);
  }
  morphChildren(target, source);
}
