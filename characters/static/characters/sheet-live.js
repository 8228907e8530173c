// An open sheet is swapped whole when a live push arrives (characters/live.py). tablee.js puts back
// the fields someone changed; this keeps the rest of where they were: the <details> they opened and
// the field they were typing in (with its caret), and the answer to their own last action (a push of
// that same change may arrive after it and would otherwise wipe the notice).
(function () {
  "use strict";
  function keyOf(el) {
    var form = el.closest("form");
    return (form ? form.getAttribute("hx-post") || "" : "") + "|" + el.name;
  }
  function summaryOf(details) {
    var s = details.querySelector("summary");
    return s ? s.textContent.trim() : "";
  }
  var saved = null;
  document.addEventListener("htmx:oobBeforeSwap", function (evt) {
    var target = evt.detail.target;
    if (!target || target.id !== "sheet") { return; }
    var active = document.activeElement;
    var focused = active && active.name && target.contains(active) ? active : null;
    saved = {
      messages: Array.prototype.map.call(target.querySelectorAll(":scope > p.message"), function (p) { return p.cloneNode(true); }),
      open: Array.prototype.map.call(target.querySelectorAll("details[open]"), summaryOf),
      focus: focused ? keyOf(focused) : null,
      caret: focused && typeof focused.selectionStart === "number" ? [focused.selectionStart, focused.selectionEnd] : null,
    };
  });
  document.addEventListener("htmx:oobAfterSwap", function () {
    var sheet = document.getElementById("sheet");
    if (!saved || !sheet) { return; }
    var state = saved;
    saved = null;
    if (!sheet.querySelector(":scope > p.message")) {
      state.messages.slice().reverse().forEach(function (p) { sheet.insertBefore(p, sheet.firstChild); });
    }
    sheet.querySelectorAll("details").forEach(function (details) {
      if (state.open.indexOf(summaryOf(details)) !== -1) { details.open = true; }
    });
    if (state.focus) {
      sheet.querySelectorAll("input[name], select[name], textarea[name]").forEach(function (el) {
        if (keyOf(el) !== state.focus) { return; }
        el.focus();
        if (state.caret && typeof el.setSelectionRange === "function") {
          try { el.setSelectionRange(state.caret[0], state.caret[1]); } catch (e) { /* not a text field */ }
        }
      });
    }
  });
})();
