// The statistics cards packed as on a pinboard: each card goes to the top of the shortest
// column, so a short card (a game's bests, a group with one chart) leaves no hole under it
// that the next row would start below. The grid (stats.css, .stat-groups) has rows a few
// pixels tall and places its cards densely; here each card spans as many rows as its height
// and the gap take, measured again whenever it changes height (a chart's table opened, a
// narrower window). Every card is one column wide, so dense placement puts each at the top
// of the shortest column, leftmost among equals: each card's top is at or below the one
// before it, and reading and Tab order go down the page as the eye does.

let watching = null;

export function packCards(grid) {
  watching?.disconnect();  // the cards shown before (another game's)
  if (!grid) return;  // no cards: no finished game yet
  const style = getComputedStyle(grid);
  const rowPx = Number.parseFloat(style.gridAutoRows);
  if (!(rowPx > 0)) return;  // not a grid of short rows (a style without them): as laid out
  const gap = Number.parseFloat(style.columnGap) || 0;
  const span = (card) => {
    const rows = Math.max(1, Math.ceil((card.getBoundingClientRect().height + gap) / rowPx));
    card.style.gridRowEnd = `span ${rows}`;
  };
  const cards = [...grid.children];
  cards.forEach(span);  // at once, so the page is packed when it says it is ready
  watching = new ResizeObserver((changed) => changed.forEach((entry) => span(entry.target)));
  cards.forEach((card) => watching.observe(card));
}
