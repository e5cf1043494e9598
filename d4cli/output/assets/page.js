// The players' page (d4cli serve): follows /events and swaps in each new view without a reload.
// The server escapes every name in the fragment; it is parsed into an inert document (no script
// of it runs, nothing of it loads) and its nodes are moved in: no markup is assigned to the page.
"use strict";
const main = document.getElementById("view");
const parser = new DOMParser();
const source = new EventSource("/events");
source.onmessage = (event) => {
  const data = JSON.parse(event.data);
  const parsed = parser.parseFromString(data.html, "text/html");
  main.replaceChildren(...parsed.body.childNodes);
  document.body.dataset.seq = String(data.seq);
};
