// Small behaviours shared by every page. No framework: htmx does the swapping.
(function () {
  "use strict";
  // A live push and the answer to one's own post travel on two connections and can cross:
  // a board carrying data-version never gives way to one rendered at an older version.
  function versionOf(el) {
    var v = el && el.getAttribute ? el.getAttribute("data-version") : null;
    return v === null || v === "" ? null : parseInt(v, 10);
  }
  function isOlder(incoming, current) {
    return incoming !== null && current !== null && incoming < current;
  }
  // Every server answer that carries a refusal (4xx) is still swapped, so the reason shows.
  document.addEventListener("htmx:beforeSwap", function (evt) {
    var status = evt.detail.xhr.status;
    if (status === 400 || status === 403 || status === 409 || status === 422) {
      evt.detail.shouldSwap = true;
      evt.detail.isError = false;
    }
    var target = evt.detail.target;
    var text = evt.detail.serverResponse;
    if (evt.detail.shouldSwap && target && target.id && typeof text === "string") {
      var match = new RegExp('id="' + target.id + '"[^>]*data-version="(\\d+)"').exec(text);
      if (match && isOlder(parseInt(match[1], 10), versionOf(target))) {
        evt.detail.shouldSwap = false;
      }
    }
  });
  // A live push must not wipe what someone is typing or ticking: fields the person changed are
  // read before the swap and put back into the same form of the new fragment.
  // A form is known by where it posts and by its hidden fields (which card, which action), not by
  // the version and token that change with every push.
  function formKey(form) {
    if (!form) { return ""; }
    var parts = [form.getAttribute("hx-post") || form.getAttribute("action") || ""];
    form.querySelectorAll("input[type=hidden][name]").forEach(function (el) {
      if (el.name !== "version" && el.name !== "csrfmiddlewaretoken") { parts.push(el.name + "=" + el.value); }
    });
    return parts.join("&");
  }
  function fieldKey(el) {
    return formKey(el.form) + "|" + el.name;
  }
  function changedFields(root) {
    var changed = [];
    root.querySelectorAll("input[name], select[name], textarea[name]").forEach(function (el) {
      if (el.type === "hidden" || el.type === "submit" || el.type === "button") { return; }
      if (el.type === "checkbox" || el.type === "radio") {
        if (el.checked !== el.defaultChecked) { changed.push({ key: fieldKey(el), value: el.value, checked: el.checked }); }
      } else if (el.tagName === "SELECT") {
        var moved = Array.prototype.some.call(el.options, function (o) { return o.selected !== o.defaultSelected; });
        if (moved) { changed.push({ key: fieldKey(el), value: el.value }); }
      } else if (el.value !== el.defaultValue) {
        changed.push({ key: fieldKey(el), value: el.value });
      }
    });
    return changed;
  }
  function restoreFields(root, changed) {
    changed.forEach(function (field) {
      root.querySelectorAll("input[name], select[name], textarea[name]").forEach(function (el) {
        if (fieldKey(el) !== field.key) { return; }
        if (el.type === "checkbox" || el.type === "radio") {
          if (el.value === field.value) { el.checked = field.checked; }
        } else if (el.type !== "hidden") {
          el.value = field.value;
        }
      });
    });
  }
  var pending = new WeakMap();
  document.addEventListener("htmx:oobBeforeSwap", function (evt) {
    var fragment = evt.detail.fragment;
    var incoming = fragment && fragment.firstElementChild;
    var target = evt.detail.target;
    if (isOlder(versionOf(incoming), versionOf(target))) {
      evt.detail.shouldSwap = false;
      return;
    }
    if (target && target.id && target.querySelectorAll) {
      var changed = changedFields(target);
      if (changed.length) { pending.set(target, changed); }
    }
  });
  // Live messages mark what is new for a moment.
  document.addEventListener("htmx:oobAfterSwap", function (evt) {
    var old = evt.detail.target;
    // After an outerHTML swap the event still names the element that left the page.
    var el = old && old.id && !old.isConnected ? document.getElementById(old.id) : old;
    var saved = old ? pending.get(old) : null;
    if (saved && el) {
      pending.delete(old);
      restoreFields(el, saved);
    }
    if (el && el.classList) {
      el.classList.add("just-arrived");
      setTimeout(function () { el.classList.remove("just-arrived"); }, 2500);
    }
  });
  document.addEventListener("click", function (evt) {
    var t = evt.target.closest("[data-print]");
    if (t) { evt.preventDefault(); window.print(); }
  });
})();
