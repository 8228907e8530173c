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
  function checkVersions(evt) {
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
  }
  document.addEventListener("htmx:beforeSwap", checkVersions);
  // Positions: a live push and the answer to this page's own request travel on two connections and can
  // cross. An answer says the position it shows at least in each live stream it read (X-Live-Position:
  // "campaign:3=41, tragic:7=12", campaigns/answer_position.py), and a page takes the position of its own stream
  // only (its socket's data-live-stream): a campaign page counts in the campaign's events, a game board in its
  // game's versions. Every region the answer replaces is noted at that position, and so is every region
  // a push replaces. A push fragment at or before a region's position is stale (rendered before the answer's
  // write, arriving or held after it) and is dropped; an answer fragment older than a push already shown is
  // not swapped over it. A region inside a replaced one is as recent as the one around it.
  var shownAt = {};  // element id -> the stream position its content shows at least
  var pageStreams = null;  // a whole page's answer's positions, handed to the live socket once the page is in
  function answerStreams(xhr) {
    var value = xhr && xhr.getResponseHeader ? xhr.getResponseHeader("X-Live-Position") : null;
    var streams = {};
    (value || "").split(",").forEach(function (part) {
      var match = /^\s*([a-z]+:\d+)=(\d+)\s*$/.exec(part);
      if (match) { streams[match[1]] = parseInt(match[2], 10); }
    });
    return streams;
  }
  function pageStream() {
    var root = document.getElementById("live-socket");
    return root ? root.getAttribute("data-live-stream") : null;
  }
  function answerPosition(xhr) {
    var stream = pageStream();
    var streams = answerStreams(xhr);
    return stream && streams.hasOwnProperty(stream) ? streams[stream] : null;
  }
  // A region kept through its container's swaps (hx-preserve) is not as recent as the container: the walk up
  // stops there.
  function regionAt(el) {
    var at = null;
    for (; el && el.nodeType === 1; el = el.parentElement) {
      if (el.id && shownAt.hasOwnProperty(el.id) && (at === null || shownAt[el.id] > at)) { at = shownAt[el.id]; }
      if (el.hasAttribute("hx-preserve")) { break; }
    }
    return at;
  }
  // What an answer would replace includes the regions inside it: a push may have sent some of them alone (a board's
  // row, its head, its foot: campaigns/live_regions.py), and an older answer must not put them back as they were.
  // Pushes need no such look down: they arrive in order, each carrying every region its event changed.
  function newestIn(el) {
    var at = regionAt(el);
    Object.keys(shownAt).forEach(function (id) {
      if (at !== null && shownAt[id] <= at) { return; }
      var inner = document.getElementById(id);
      if (inner && inner !== el && el.contains(inner)) { at = shownAt[id]; }
    });
    return at;
  }
  function noteShown(id, position) {
    if (id && !(shownAt[id] >= position)) { shownAt[id] = position; }
  }
  function replaces(el) {
    return !/^(afterbegin|beforeend|beforebegin|afterend|delete|none)(:|$)/.test(el.getAttribute("hx-swap-oob") || "");
  }
  // One answer serves several pages, so it may carry out-of-band fragments for regions this page does not
  // show: they are dropped here, as the live socket drops them, instead of being left to htmx, which would
  // log htmx:oobErrorNoTarget and swap nothing (it swaps out-of-band fragments before the answer's main
  // content, so a region that exists only in the answer is no target either). Fragments older than what a
  // push already showed are dropped too (see positions above).
  function checkPositions(evt) {
    var text = evt.detail.serverResponse;
    if (!evt.detail.shouldSwap || typeof text !== "string") { return; }
    var target = evt.detail.target;
    // A new page: its stream is known once it is in, and every region of it is at the answer's position.
    var position = target === document.body ? null : answerPosition(evt.detail.xhr);
    if (target === document.body) {
      shownAt = {};
      pageStreams = answerStreams(evt.detail.xhr);
    }
    if (position !== null) {
      if (target && newestIn(target) > position) {
        evt.detail.shouldSwap = false;  // a push newer than this answer is already on the page
        return;
      } else if (target) {
        noteShown(target.id, position);
      }
    }
    if (text.indexOf("hx-swap-oob") < 0) { return; }
    var whole = /<html[\s>]/i.test(text);
    var root = whole ? new DOMParser().parseFromString(text, "text/html") : document.createElement("template");
    if (!whole) { root.innerHTML = text; }
    var dropped = false;
    (whole ? root : root.content).querySelectorAll("[hx-swap-oob]").forEach(function (el) {
      var selector = oobSelector(el);
      var found = selector ? document.querySelector(selector) : null;
      if (!found) { el.remove(); dropped = true; return; }
      if (position === null || !replaces(el) || whole) { return; }
      if (newestIn(found) > position) { el.remove(); dropped = true; return; }
      noteShown(found.id, position);
    });
    if (dropped) {
      evt.detail.serverResponse = whole ? "<!doctype html>\n" + root.documentElement.outerHTML : root.innerHTML;
    }
  }
  document.addEventListener("htmx:beforeSwap", checkPositions);
  // htmx names an answer's target when the request leaves. If that region was replaced meanwhile (another answer,
  // a poll, a push held and then let through), the answer went into the element that had left the page and nothing
  // showed: after « Terminer le tour » the old board stayed, with the button just clicked. htmx tells only the
  // element that left (its events no longer reach the document), so each request listens on its target: an answer
  // whose target has left goes to the region of the same id now on the page, after the same checks as any answer.
  document.addEventListener("htmx:beforeRequest", function (evt) {
    var target = evt.detail.target;
    if (!target || !target.id || target === document.body) { return; }
    target.addEventListener("htmx:beforeSwap", function (swap) {
      var now = document.getElementById(target.id);
      if (target.isConnected || !now || swap.detail.target !== target) { return; }
      swap.detail.target = now;
      checkVersions(swap);
      checkPositions(swap);
    }, { once: true });
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
  // The fields a person types into or ticks (not the hidden ones, not the buttons).
  function typedFields(root) {
    return Array.prototype.filter.call(root.querySelectorAll("input[name], select[name], textarea[name]"), function (el) {
      return el.type !== "hidden" && el.type !== "submit" && el.type !== "button";
    });
  }
  function fieldRecord(el, keyOf) {
    return { key: keyOf(el), value: el.value, checked: el.checked };
  }
  function changedFields(root) {
    return typedFields(root).filter(function (el) {
      if (el.type === "checkbox" || el.type === "radio") { return el.checked !== el.defaultChecked; }
      if (el.tagName === "SELECT") {
        return Array.prototype.some.call(el.options, function (o) { return o.selected !== o.defaultSelected; });
      }
      return el.value !== el.defaultValue;
    }).map(function (el) { return fieldRecord(el, fieldKey); });
  }
  function restoreFields(root, changed, keyOf) {
    changed.forEach(function (field) {
      root.querySelectorAll("input[name], select[name], textarea[name]").forEach(function (el) {
        if ((keyOf || fieldKey)(el) !== field.key) { return; }
        if (el.type === "checkbox" || el.type === "radio") {
          if (el.value === field.value) { el.checked = field.checked; }
        } else if (el.type !== "hidden") {
          el.value = field.value;
        }
      });
    });
  }
  // The page's own answer must not wipe what was typed after its request left either. The socket often shows a
  // note before the POST's answer brings the empty form back, and the next note, typed meanwhile, vanished with the
  // old form. Fields changed since the request left are put back into the answer's form; the rest is the answer's.
  function formOf(elt) {
    if (!elt || !elt.tagName) { return null; }
    return elt.tagName === "FORM" ? elt : elt.form || (elt.closest ? elt.closest("form") : null);
  }
  function stateOf(el) {
    if (el.type === "checkbox" || el.type === "radio") { return String(el.checked); }
    if (el.tagName === "SELECT") { return Array.prototype.map.call(el.selectedOptions, function (o) { return o.value; }).join("\n"); }
    return el.value;
  }
  // The answer's form is the same form when it has the same id: its hidden fields may say where it was posted from.
  function ownFieldKey(el) {
    return (el.form && el.form.id ? "#" + el.form.id : formKey(el.form)) + "|" + el.name;
  }
  var sentStates = new WeakMap();  // form -> Map(field -> its state when the request left)
  var typedSince = {};  // target id -> fields changed since the request left, put back after the swap
  document.addEventListener("htmx:beforeRequest", function (evt) {
    var form = formOf(evt.detail.elt);
    if (!form) { return; }
    var states = new Map();
    typedFields(form).forEach(function (el) { states.set(el, stateOf(el)); });
    sentStates.set(form, states);
  });
  document.addEventListener("htmx:beforeSwap", function (evt) {
    var form = formOf(evt.detail.requestConfig && evt.detail.requestConfig.elt);
    var states = form ? sentStates.get(form) : null;
    var target = evt.detail.target;
    if (!states || !target || !target.id || !target.contains(form)) { return; }
    sentStates.delete(form);
    var changed = typedFields(form).filter(function (el) {
      return states.has(el) && states.get(el) !== stateOf(el);
    }).map(function (el) { return fieldRecord(el, ownFieldKey); });
    // Kept with its request: an answer whose swap is called off (an older one) must not leave them to another's.
    if (changed.length) { typedSince[target.id] = { xhr: evt.detail.xhr, fields: changed }; }
  });
  document.addEventListener("htmx:afterSwap", function (evt) {
    var target = evt.detail.target;
    var typed = target && target.id ? typedSince[target.id] : null;
    if (!typed) { return; }
    delete typedSince[target.id];
    var now = document.getElementById(target.id);
    if (now && typed.xhr === evt.detail.xhr) { restoreFields(now, typed.fields, ownFieldKey); }
  });
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
  // ---- The live socket of a campaign page (campaigns/consumers.py is the other end) ----
  // Every message carries its position in the campaign's stream; the page remembers the last one it
  // rendered and, after any drop, reconnects with ?after=<that position> to get what it missed, filtered
  // for this member by the server exactly like live messages (past a few events, its regions as they now
  // stand, campaigns/live_catch_up.py). The status line says what is true.
  function oobSelector(el) {
    var spec = el.getAttribute("hx-swap-oob") || "true";
    var colon = spec.indexOf(":");
    if (colon >= 0) { return spec.slice(colon + 1); }
    return el.id ? "#" + CSS.escape(el.id) : null;
  }
  // Only fragments whose target is on this page are swapped (no htmx:oobErrorNoTarget), entries already
  // shown (a replay after a reconnect may repeat a few) are not added twice, and out-of-band markers nested
  // in a fragment are content, not swaps of their own.
  // A region holding a form whose request is under way is not replaced until its answer is in: htmx looks
  // for the answer's out-of-band targets from the form, and a form a live push took off the page finds
  // none (htmx:oobErrorNoTarget, nothing swapped). The fragment waits and is swapped after the answer.
  var waiting = [];  // [position, fragment html] held until the page's own request is answered
  // A control under the finger or the pointer (pressed, not yet released into a click) is not replaced either: a
  // push between pointerdown and click would take the button away mid-click. The region waits for the click's
  // answer (its request makes it busy) or, if the press leads to nothing, for the release.
  var pressed = null;
  function busy(target) {
    return target.classList.contains("htmx-request") || target.querySelector(".htmx-request") !== null ||
      (pressed !== null && target.contains(pressed));
  }
  function releaseHeld() {
    if (!waiting.length || pressed !== null || document.querySelector(".htmx-request")) { return; }
    var held = waiting;
    waiting = [];
    held.forEach(function (item) { applyLive(item[1], item[0]); });
  }
  document.addEventListener("htmx:afterRequest", releaseHeld);
  document.addEventListener("pointerdown", function (evt) {
    pressed = evt.target.closest ? evt.target.closest("button, a, input, select, label, summary") : null;
  }, true);
  function unpress() {
    if (pressed === null) { return; }
    // After the click's handlers (htmx starts the click's request there): released a turn later.
    setTimeout(function () { pressed = null; releaseHeld(); }, 0);
  }
  document.addEventListener("pointerup", unpress, true);
  document.addEventListener("pointercancel", unpress, true);

  // Own actions show at once that they are under way: the button pressed is disabled and marked busy until the
  // answer is in (a second tap does not post twice), and the result of a roll is brought into view and given the
  // focus (screen readers read it; the page does not seem to do nothing when the card lands away from the tap).
  function submitterOf(evt) {
    var elt = evt.detail.elt;
    var trigger = evt.detail.requestConfig && evt.detail.requestConfig.triggeringEvent;
    if (trigger && trigger.submitter) { return trigger.submitter; }
    if (elt && elt.tagName === "BUTTON") { return elt; }
    return elt && elt.tagName === "FORM" ? elt.querySelector("button[type=submit], button:not([type])") : null;
  }
  document.addEventListener("htmx:beforeRequest", function (evt) {
    var config = evt.detail.requestConfig;
    if (!config || config.verb === "get") { return; }
    var button = submitterOf(evt);
    if (!button || button.disabled) { return; }
    button.disabled = true;
    button.classList.add("is-busy");
    button.setAttribute("aria-busy", "true");
    var release = function () {
      button.disabled = false;
      button.classList.remove("is-busy");
      button.removeAttribute("aria-busy");
    };
    evt.detail.elt.addEventListener("htmx:afterRequest", release, { once: true });
    // A request that never answers (the network gone) gives the button back after a while.
    setTimeout(release, 15000);
  });
  function inView(el) {
    var box = el.getBoundingClientRect();
    return box.top >= 0 && box.bottom <= (window.innerHeight || document.documentElement.clientHeight);
  }
  document.addEventListener("htmx:afterSwap", function (evt) {
    var target = evt.detail.target;
    if (!target || !target.hasAttribute || !target.hasAttribute("data-reveal")) { return; }
    var shown = target.firstElementChild || target;
    if (!shown.hasAttribute("tabindex")) { shown.setAttribute("tabindex", "-1"); }
    if (!inView(shown)) { shown.scrollIntoView({ block: "center" }); }
    shown.focus({ preventScroll: true });
  });
  function applyLive(html, position) {
    var tpl = document.createElement("template");
    tpl.innerHTML = html;
    var shown = [];  // noted once every fragment of the push is sorted: they do not outdate one another
    Array.prototype.slice.call(tpl.content.children).forEach(function (el) {
      var selector = oobSelector(el);
      var target = selector ? document.querySelector(selector) : null;
      if (!target) { el.remove(); return; }
      var replacing = replaces(el);
      // Rendered before an answer (or a push) that already replaced this region: stale, dropped.
      if (replacing && regionAt(target) >= position) { el.remove(); return; }
      if (busy(target)) { waiting.push([position, el.outerHTML]); el.remove(); return; }
      if (replacing) { shown.push(target.id); }
      el.querySelectorAll("[hx-swap-oob]").forEach(function (inner) { inner.removeAttribute("hx-swap-oob"); });
      if (!replacing) {
        Array.prototype.slice.call(el.children).forEach(function (child) {
          if (child.id && document.getElementById(child.id)) { child.remove(); }
        });
      }
    });
    shown.forEach(function (id) { noteShown(id, position); });
    if (tpl.content.children.length) { htmx.swap(document.body, tpl.innerHTML, { swapStyle: "none" }); }
  }
  function LiveSocket(root, at) {
    var status = root.querySelector(".live-status");
    var base = root.getAttribute("data-live-url");
    var since = root.getAttribute("data-live-since");
    var pingMs = (parseFloat(root.getAttribute("data-live-ping")) || 25) * 1000;
    // The last position rendered: a page says it (data-live-after: the campaign's stream position it was rendered
    // at, campaigns/answer_position.py, or a game board's version, campaigns/live_boards.py), and so does the
    // answer that brought a page in; otherwise (an older page) null until the server first says where the stream
    // stands, the socket starting from the page's render time.
    var after = root.getAttribute("data-live-after");
    var last = after !== null && after !== "" ? parseInt(after, 10) : (at === undefined ? null : at);
    var socket = null, attempts = 0, retry = null, watchdog = null, offlineSince = null, state = "connecting";
    var stopped = false;
    function hhmm(date) {
      return date.toLocaleTimeString(document.documentElement.lang || undefined, { hour: "2-digit", minute: "2-digit" });
    }
    function show(next) {
      state = next;
      status.dataset.state = state;
      document.body.dataset.live = state === "open" ? "open" : "closed";
      var label = status.getAttribute("data-label-" + state) || "";
      status.textContent = label.replace("{time}", offlineSince ? hhmm(offlineSince) : "");
    }
    // The draw panels the page has opened on demand (the narrator's console rows): the socket sends them
    // only to a page that says it shows them, in its URL and, as rows open, in a message.
    var panelsSaid = "";
    function openedPanels() {
      var ids = [];
      document.querySelectorAll(".lazy-panel [data-live-panel]").forEach(function (el) {
        ids.push(el.getAttribute("data-live-panel"));
      });
      return ids.sort();
    }
    function sayPanels() {
      var panels = openedPanels();
      if (panels.join(",") === panelsSaid || !socket || socket.readyState !== WebSocket.OPEN) { return; }
      panelsSaid = panels.join(",");
      socket.send(JSON.stringify({ panels: panels }));
    }
    function url() {
      var query = last === null ? "since=" + encodeURIComponent(since) : "after=" + last;
      panelsSaid = openedPanels().join(",");
      openedPanels().forEach(function (id) { query += "&panel=" + encodeURIComponent(id); });
      return (location.protocol === "https:" ? "wss://" : "ws://") + location.host + base + (base.indexOf("?") < 0 ? "?" : "&") + query;
    }
    // A socket silent for more than two pings is dead even if the browser has not noticed (a phone
    // that slept, a Wi-Fi that changed): drop it and reconnect.
    function arm() {
      clearTimeout(watchdog);
      watchdog = setTimeout(function () { restart(true); }, 2 * pingMs + 5000);
    }
    function connect() {
      clearTimeout(retry);
      if (socket || stopped) { return; }
      var ws = new WebSocket(url());
      socket = ws;
      ws.onopen = function () { if (socket === ws) { show("catching-up"); arm(); } };
      ws.onmessage = function (evt) { if (socket === ws) { arm(); receive(evt.data); } };
      ws.onclose = function () { if (socket === ws) { socket = null; dropped(); } };
    }
    function dropped() {
      clearTimeout(watchdog);
      if (stopped) { return; }
      if (offlineSince === null) { offlineSince = new Date(); }
      attempts += 1;
      show(navigator.onLine === false || attempts > 3 ? "offline" : "reconnecting");
      // Exponential backoff with jitter, so a table's phones do not all come back in the same instant.
      var ceiling = Math.min(15000, 500 * Math.pow(2, Math.min(attempts - 1, 5)));
      retry = setTimeout(connect, navigator.onLine === false ? ceiling : ceiling / 2 + Math.random() * ceiling / 2);
    }
    // Close this socket and open another at once: its URL carries the last position, so the server replays.
    function restart(now) {
      var ws = socket;
      socket = null;
      if (ws) { ws.onclose = null; ws.close(); }
      dropped();
      if (now) { clearTimeout(retry); attempts = Math.max(attempts, 1); connect(); }
    }
    function receive(data) {
      var message;
      try { message = JSON.parse(data); } catch (err) { return; }
      if (message.t === "ev") {
        if (last !== null && message.p <= last) { return; }
        // A gap: ask again from `last`. (A page ahead of the socket, moved on by a whole page's answer, misses nothing.)
        if (last !== null && message.q > last) { restart(true); return; }
        if (message.html) { applyLive(message.html, message.p); }
        last = message.p;
      } else if (message.t === "at") {
        (message.missed || []).forEach(function (item) {
          if (last === null || item[0] > last) { applyLive(item[1], item[0]); }
        });
        // Too many missed to replay one by one: the regions this page watches as they stand at p, applied like a push.
        if (message.regions && (last === null || message.p > last)) { applyLive(message.regions, message.p); }
        last = message.p;
        if (message.ping) { pingMs = message.ping * 1000; arm(); }
        attempts = 0;
        offlineSince = null;
        show("open");
        sayPanels();  // a row opened while the socket was connecting
      } else if (message.t === "frame") {
        // A moment on the way to position p (a bot's turn played out on a game board): shown, not kept as read,
        // and its regions noted just before p, so the board at p still replaces them.
        if (last === null || message.p > last) { applyLive(message.html, message.p - 1); }
      } else if (message.t === "ping") {
        if (last !== null && message.p > last) { restart(true); }
      } else if (message.t === "reload") {
        location.reload();
      }
    }
    // Back in the foreground (a phone unlocked, a tab shown): make sure nothing was missed.
    document.addEventListener("visibilitychange", function () {
      if (stopped || document.visibilityState !== "visible") { return; }
      if (socket && socket.readyState === WebSocket.OPEN && last !== null) {
        show("catching-up");
        socket.send(JSON.stringify({ resume: last }));
      } else if (!socket) {
        attempts = 0;
        connect();
      }
    });
    // The device says the network is gone (airplane mode, Wi-Fi lost): the socket is dead whatever it
    // claims; and when the network is back, reconnect at once rather than after the backoff.
    window.addEventListener("offline", function () { if (!stopped) { restart(false); show("offline"); } });
    window.addEventListener("online", function () { if (!stopped && !socket) { attempts = 0; connect(); } });
    // A boosted answer replaced the page: the same socket serves the new page if it shows the same regions
    // (its status line is the new one), and is closed otherwise.
    this.url = base;
    this.sayPanels = sayPanels;
    // A whole page brought in by an answer shows its regions at the answer's position: later than the socket,
    // the pushes before it are stale; earlier (a push arrived while the page was loading), the socket starts
    // again from the page's position, and the server replays what the page does not show yet.
    this.adopt = function (newRoot, at) {
      status = newRoot.querySelector(".live-status");
      show(state);
      if (at === null || last === null || at === last) { return; }
      var behind = at < last;
      last = at;
      if (behind) { restart(true); }
    };
    this.stop = function () {
      stopped = true;
      clearTimeout(retry);
      clearTimeout(watchdog);
      var ws = socket;
      socket = null;
      if (ws) { ws.onclose = null; ws.close(); }
    };
    show("connecting");
    connect();
  }
  var current = null;  // the socket of the page shown
  function startLive() {
    var root = document.getElementById("live-socket");
    var url = root ? root.getAttribute("data-live-url") : null;
    var stream = root ? root.getAttribute("data-live-stream") : null;
    var at = pageStreams && stream && pageStreams.hasOwnProperty(stream) ? pageStreams[stream] : null;
    var after = root ? root.getAttribute("data-live-after") : null;
    if (at === null && after) { at = parseInt(after, 10); }
    pageStreams = null;
    if (current && current.url !== url) { current.stop(); current = null; }
    if (current && root && root.liveSocket === current) { current.sayPanels(); }
    if (!root || !url || root.liveSocket) { return; }
    if (current) { current.adopt(root, at); } else { current = new LiveSocket(root, at === null ? undefined : at); }
    root.liveSocket = current;
  }
  document.addEventListener("htmx:afterSettle", startLive);
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", startLive); } else { startLive(); }
  document.addEventListener("click", function (evt) {
    var t = evt.target.closest("[data-print]");
    if (t) { evt.preventDefault(); window.print(); }
  });
})();
