// A board that pans in a box of its own (.board-scroll: Minesweeper's Hard and Expert on an
// upright phone): brings a part of it into the box's sight. Both the game page (views.js)
// and the replay page (replay.js) use it.

// Pans the .board-scroll box holding `element` so that `inner` (a rectangle on the
// screen) is centred along each way where it is not at least the margin inside.
export function panBoxTo(element, inner, marginX, marginY) {
  const box = element.closest(".board-scroll");
  if (!box) return;
  const outer = box.getBoundingClientRect();
  const centre = (start, end, from, to, margin) =>
    (start >= from + margin && end <= to - margin ? 0 : (start + end - from - to) / 2);
  box.scrollLeft += centre(inner.left, inner.right, outer.left, outer.right, marginX);
  box.scrollTop += centre(inner.top, inner.bottom, outer.top, outer.bottom, marginY);
}

// What ended the game (data-end-cause: Minesweeper's exploded mine) is brought into such
// a box's sight when it comes, along each way it is not wholly in sight already (a chord's
// mine past the box's edge, a loss in another tab, a reload or a replay's last move: the
// box starts at the board's top), and again whenever the box changes size (the frames
// after a reload lay the page out again, fit.js: a box a line shorter hid the board's last
// row). A mine hit by a tap is in sight already, and the box stays as it is. Panned at
// once: the end card, placed in the next frame, keeps clear of where the cause then lies.
// Returns what to call after each board shown in `board`.
export function keepEndCauseInSight(board) {
  let shown = null;  // the first element that ended the game shown now
  const boxResized = new ResizeObserver(() => panToEndCause(board));
  return function endCauseInSight() {
    const cause = board.querySelector(".board-scroll [data-end-cause]");
    if (cause !== shown) boxResized.disconnect();
    if (cause && cause !== shown) {
      panToEndCause(board);
      boxResized.observe(cause.closest(".board-scroll"));
    }
    shown = cause;
  };
}

function panToEndCause(board) {
  const causes = [...board.querySelectorAll(".board-scroll [data-end-cause]")];
  if (!causes.length) return;
  const boxes = causes.map((cause) => cause.getBoundingClientRect());
  const spanned = (side, pick) => pick(...boxes.map((box) => box[side]));
  panBoxTo(causes[0], { left: spanned("left", Math.min), right: spanned("right", Math.max),
    top: spanned("top", Math.min), bottom: spanned("bottom", Math.max) }, 0, 0);
}
