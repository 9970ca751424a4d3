// memoryd console: progressive enhancement only; every page works without it.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  // Focus the first empty field of a filter form, so a page opened from a link is ready to type in.
  const empty = document.querySelector("form.filters input:not([type=hidden]):placeholder-shown");
  if (empty && !document.querySelector("table")) empty.focus();
});
