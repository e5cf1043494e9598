// The players' page (d4cli serve): follows /events and swaps in each new view without a reload.
// The server escapes every name in the fragment; it is parsed into an inert document (no script
// of it runs, nothing of it loads) and its nodes are moved in: no markup is assigned to the page.
//
// When the turn order is taller than the screen, only a window of it shows: the row in focus
// (the order's data-focus: the current creature, else the next), one row before it and as many
// after it as fit, with "N more above" and "N more below" lines. The same rule as the terminal
// boards (d4cli/output/window.py), with heights measured in pixels.
"use strict";
const main = document.getElementById("view");
const parser = new DOMParser();
let source = null;
const BEFORE = 1; // rows kept in view before the one in focus

// The rows [start, end) of `heights` that fit `room` around row `focus`, a "more" line taking `line`:
// the row in focus, the next one, the one before, the rest after it, then rows above.
function windowOf(heights, focus, room, line) {
  const count = heights.length;
  const total = heights.reduce((a, b) => a + b, 0);
  if (count === 0 || total <= room) return [0, count];
  focus = Math.min(Math.max(focus, 0), count - 1);
  let start = focus;
  let end = focus + 1;
  let used = heights[focus];
  const fits = (extra, first, last) =>
    used + extra + line * ((first > 0 ? 1 : 0) + (last < count ? 1 : 0)) <= room;
  if (end < count && fits(heights[end], start, end + 1)) used += heights[end++];
  for (let step = 0; step < BEFORE; step += 1) {
    if (start > 0 && fits(heights[start - 1], start - 1, end)) used += heights[--start];
  }
  while (end < count && fits(heights[end], start, end + 1)) used += heights[end++];
  while (start > 0 && fits(heights[start - 1], start - 1, end)) used += heights[--start];
  return [start, end];
}

function moreLine(text) {
  const li = document.createElement("li");
  li.className = "more";
  li.textContent = text;
  return li;
}

function outerHeight(element) {
  const style = getComputedStyle(element);
  return element.getBoundingClientRect().height + parseFloat(style.marginTop) + parseFloat(style.marginBottom);
}

// Show the window of the turn order that fits the screen below its top.
function fit() {
  const order = main.querySelector("ol.order");
  if (!order) return;
  order.querySelectorAll("li.more").forEach((li) => li.remove());
  const rows = [...order.querySelectorAll("li.creature")];
  rows.forEach((li) => { li.hidden = false; });
  if (rows.length === 0) return;
  const probe = order.appendChild(moreLine("0 more below"));
  const line = outerHeight(probe);
  probe.remove();
  const bottom = parseFloat(getComputedStyle(order).paddingBottom);
  const room = window.innerHeight - order.getBoundingClientRect().top - bottom;
  const heights = rows.map(outerHeight);
  const [start, end] = windowOf(heights, Number(order.dataset.focus) || 0, room, line);
  rows.forEach((li, index) => { li.hidden = index < start || index >= end; });
  if (start > 0) order.insertBefore(moreLine(`${start} more above`), rows[start]);
  if (end < rows.length) rows[end - 1].after(moreLine(`${rows.length - end} more below`));
}

// The server can go away (stopped, a laptop asleep, Wi-Fi gone): the page says so at once
// ("Reconnecting"), greys out the view it holds, and tries again with back-off. The stream's
// first message on return is the table as it stands, so the page catches up by itself.
const offline = document.getElementById("offline");
let retryDelay = 500;
let retryTimer = 0;

function setOnline(up) {
  offline.hidden = up;
  document.body.classList.toggle("stale", !up);
  document.body.dataset.online = String(up);
}

function lost() {
  setOnline(false);
  if (source) { source.close(); source = null; }
  clearTimeout(retryTimer);
  retryTimer = setTimeout(connect, retryDelay);
  retryDelay = Math.min(2 * retryDelay, 5000);
}

function show(event) {
  const data = JSON.parse(event.data);
  const parsed = parser.parseFromString(data.html, "text/html");
  main.replaceChildren(...parsed.body.childNodes);
  fit();
  document.body.dataset.seq = String(data.seq);
  retryDelay = 500;
  setOnline(true);
}

function connect() {
  source = new EventSource("/events");
  source.onmessage = show;
  source.onerror = lost;
}

window.addEventListener("resize", fit);
fit();
connect();
