// The board fits the first screen. The page measures the room the chrome leaves the board:
// the window's height less what is above the board (bars, headline, status line, seats) and
// the deal line under it, and the board area's width. A game's stylesheet sizes its board
// to var(--board-room-h) and var(--board-room-w) (px, on #board-wrap), so board and status
// fit the first screen. var(--board-room-foot) is the height from the board's top to the
// screen's foot: the room of a board that lets what stands under it (a move strip, the
// deal line) go below the fold rather than take cells too small for a finger.
// A game with a second drawing for a wide room names the room's width over height from
// which that drawing gives the bigger board (--board-wide-from, on #board-wrap), and the
// page marks the room data-room="wide" or "tall" for its stylesheet.
import { $ } from "/static/common.js";

const MIN_BOARD_ROOM_PX = 160;

export function fitBoardToScreen() {
  const wrap = $("board-wrap");
  const measure = () => {
    const style = getComputedStyle(wrap);
    const px = (value) => Number.parseFloat(value) || 0;
    const top = wrap.getBoundingClientRect().top + window.scrollY;
    const idbar = document.querySelector(".idbar");
    const main = getComputedStyle(wrap.parentElement);
    // (the deal line takes the board's height only under it, not in a column beside it)
    const beside = idbar.getBoundingClientRect().left >= wrap.getBoundingClientRect().right;
    const below = (beside ? 0 : idbar.offsetHeight + px(main.rowGap)) + px(main.paddingBottom);
    const height = document.documentElement.clientHeight - top - below
      - px(style.paddingTop) - px(style.paddingBottom);
    const width = wrap.clientWidth - px(style.paddingLeft) - px(style.paddingRight);
    const toFoot = document.documentElement.clientHeight - top - px(style.paddingTop);
    setRoom(wrap, "--board-room-h", Math.max(MIN_BOARD_ROOM_PX, Math.floor(height)));
    setRoom(wrap, "--board-room-foot", Math.max(MIN_BOARD_ROOM_PX, Math.floor(toFoot)));
    setRoom(wrap, "--board-room-w", Math.max(MIN_BOARD_ROOM_PX, Math.floor(width)));
    markShape(wrap, width / Math.max(MIN_BOARD_ROOM_PX, height), px(style.getPropertyValue("--board-wide-from")));
  };
  // what is above the board changes height (a status line wraps, seats appear): measure
  // again, after layout and before paint; and whenever the window changes size
  const above = new ResizeObserver(measure);
  // (a page has those it needs: the replay page has no seats' series nor take-back)
  for (const element of [document.querySelector(".topbar"), document.querySelector(".status-row"),
    $("seats"), $("series"), $("takeback"), document.querySelector(".idbar")]) {
    if (element) above.observe(element);
  }
  window.addEventListener("resize", measure);
  // and once the game's stylesheet has come: its layout may give the board another room
  // (Minesweeper's panel reaches a phone's sides: 380 px, not the page's 350)
  $("game-css")?.addEventListener("load", measure);
  measure();
}

// (a scroll bar that comes or goes with the new drawing changes the width a little: the
// mark changes only once the ratio is past the threshold by more than that)
const SHAPE_MARGIN = 0.03;

function markShape(wrap, ratio, wideFrom) {
  if (!wideFrom) return;
  const wide = wrap.dataset.room === "wide"
    ? ratio >= wideFrom * (1 - SHAPE_MARGIN) : ratio >= wideFrom * (1 + SHAPE_MARGIN);
  const shape = wide ? "wide" : "tall";
  if (wrap.dataset.room !== shape) wrap.dataset.room = shape;
}

function setRoom(wrap, name, pixels) {
  const value = `${pixels}px`;
  if (wrap.style.getPropertyValue(name) !== value) wrap.style.setProperty(name, value);
}
