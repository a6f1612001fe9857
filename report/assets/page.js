"use strict";
const data = JSON.parse(document.getElementById("vcmon-data").textContent);
function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}
function dur(ns) {
  const units = [[1e9, "s"], [1e6, "ms"], [1e3, "us"]];
  for (const [scale, unit] of units) if (Math.abs(ns) >= scale) return (ns / scale).toFixed(2) + " " + unit;
  return Math.round(ns) + " ns";
}
