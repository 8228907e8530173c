// Small behaviours shared by every page. No framework: htmx does the swapping.
(function () {
  "use strict";
  // Every server answer that carries a refusal (4xx) is still swapped, so the reason shows.
  document.addEventListener("htmx:beforeSwap", function (evt) {
    var status = evt.detail.xhr.status;
    if (status === 400 || status === 403 || status === 409 || status === 422) {
      evt.detail.shouldSwap = true;
      evt.detail.isError = false;
    }
  });
  // Live messages mark what is new for a moment.
  document.addEventListener("htmx:oobAfterSwap", function (evt) {
    var el = evt.detail.target;
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
