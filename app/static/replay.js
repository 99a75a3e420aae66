/* The replay stepper: keys, slider, buttons and links move through the hand without a
   reload; the address always holds ?step=N, so links and the back button work.
   The table at each step comes from the server as HTML (/replay-table/...), rendered by
   the same template as the first paint. Plain JavaScript, no library. */
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  function start() {
    var root = document.querySelector("[data-replay]");
    if (!root) return;
    var index = JSON.parse(document.getElementById("replay-index").textContent);
    var numbers = index.map(function (s) { return s.n; });
    var first = numbers[0], last = numbers[numbers.length - 1];
    var findingSteps = JSON.parse(root.getAttribute("data-findings") || "[]");
    var fragment = root.getAttribute("data-fragment");
    var viewer = root.getAttribute("data-viewer");
    var slot = document.getElementById("table-slot");
    var slider = document.getElementById("step-slider");
    var out = document.getElementById("step-out");
    var status = document.getElementById("step-status");
    var hint = document.getElementById("key-hint");
    var hintTimer = null;
    function say(text) {
      if (!hint) return;
      hint.textContent = text;
      if (hintTimer) clearTimeout(hintTimer);
      hintTimer = setTimeout(function () { hint.textContent = ""; }, 4000);
    }
    var current = parseInt(root.getAttribute("data-step"), 10);
    var wanted = current;
    var cache = {};

    function clamp(n) {
      if (isNaN(n)) return first;
      return Math.max(first, Math.min(last, n));
    }
    function href(n) {
      var url = new URL(window.location.href);
      url.searchParams.set("step", String(n));
      return url.pathname + url.search + url.hash;
    }
    function load(n) {
      if (!cache[n]) {
        var q = new URLSearchParams({ step: String(n) });
        if (viewer !== "") q.set("as", viewer);
        cache[n] = fetch(fragment + "?" + q.toString(), { credentials: "same-origin" })
          .then(function (r) {
            if (!r.ok) throw new Error("HTTP " + r.status);
            return r.text();
          });
        cache[n].catch(function () { delete cache[n]; });
      }
      return cache[n];
    }
    function label(n) {
      var s = index[numbers.indexOf(n)];
      var text = n === first ? "the deal" : "step " + n + " of " + last + ": " + s.label;
      if (s && s.f) text += ", " + s.f + " finding" + (s.f > 1 ? "s" : "");
      return text;
    }
    function refresh() {
      slider.value = String(current);
      slider.setAttribute("aria-valuetext", current === first ? "the deal" : "step " + current);
      out.textContent = current === first ? "deal" : String(current);
      var targets = { first: first, prev: clamp(current - 1), next: clamp(current + 1), last: last };
      Object.keys(targets).forEach(function (k) {
        var a = root.querySelector('[data-nav="' + k + '"]');
        if (!a) return;
        a.setAttribute("href", href(targets[k]));
        if (targets[k] === current) a.setAttribute("aria-disabled", "true");
        else a.removeAttribute("aria-disabled");
      });
      root.setAttribute("data-step", String(current));
      document.querySelectorAll("a[data-step]").forEach(function (a) {
        if (parseInt(a.getAttribute("data-step"), 10) === current) a.setAttribute("aria-current", "step");
        else a.removeAttribute("aria-current");
        a.setAttribute("href", href(parseInt(a.getAttribute("data-step"), 10)));
      });
      document.querySelectorAll("a[data-keep-step]").forEach(function (a) {
        var u = new URL(a.href);
        u.searchParams.set("step", String(current));
        a.setAttribute("href", u.pathname + u.search);
      });
      document.querySelectorAll("[data-follow-step]").forEach(function (input) {
        input.value = String(current);
      });
      status.textContent = label(current);
      var row = root.querySelector('[data-events] a[aria-current="step"]');
      var list = root.querySelector("[data-events]");
      if (row && list) {
        var top = row.offsetTop - list.offsetTop;
        if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - row.offsetHeight) {
          list.scrollTop = Math.max(0, top - list.clientHeight / 2);
        }
      }
    }
    function placeMarks() {
      var span = last - first;
      root.querySelectorAll("[data-mark]").forEach(function (m) {
        var n = parseInt(m.getAttribute("data-mark"), 10);
        m.style.left = (span > 0 ? ((n - first) / span) * 100 : 0) + "%";
      });
    }
    function go(n, how, focus) {
      n = clamp(n);
      wanted = n;
      return load(n).then(function (html) {
        if (wanted !== n) return;
        slot.innerHTML = html;
        current = n;
        if (how === "push") history.pushState({ step: n }, "", href(n));
        else if (how === "replace") history.replaceState({ step: n }, "", href(n));
        refresh();
        if (focus) {
          var h = document.getElementById("step-heading");
          if (h) h.focus();
        }
        if (n < last) load(n + 1);
        if (n > first) load(n - 1);
      }).catch(function () {
        window.location.assign(href(n));  // the server renders the whole page instead
      });
    }
    function nextFinding(dir) {
      var list = dir > 0 ? findingSteps : findingSteps.slice().reverse();
      for (var i = 0; i < list.length; i++) {
        if (dir > 0 ? list[i] > current : list[i] < current) return list[i];
      }
      return null;
    }

    root.querySelectorAll("[data-nav]").forEach(function (a) {
      a.addEventListener("click", function (e) {
        if (e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        var to = { first: first, prev: current - 1, next: current + 1, last: last }[a.getAttribute("data-nav")];
        go(to, "push");
      });
    });
    slider.addEventListener("input", function () { go(parseInt(slider.value, 10), "replace"); });
    slider.addEventListener("change", function () {
      var n = parseInt(slider.value, 10);
      go(n, "replace");
    });
    document.addEventListener("click", function (e) {
      var a = e.target.closest && e.target.closest("a[data-step]");
      if (!a || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey || e.button !== 0) return;
      if (!root.contains(a) && !a.closest(".case-panel")) return;
      e.preventDefault();
      go(parseInt(a.getAttribute("data-step"), 10), "push", true);
    });
    function typing(t) {
      /* keys go to the page whatever has focus, except where they type text */
      if (!t || !t.tagName) return false;
      var tag = t.tagName.toLowerCase();
      if (tag === "textarea" || tag === "select" || t.isContentEditable) return true;
      if (tag !== "input") return false;
      var type = (t.getAttribute("type") || "text").toLowerCase();
      return ["range", "checkbox", "radio", "button", "submit", "reset"].indexOf(type) < 0;
    }
    document.addEventListener("keydown", function (e) {
      if (e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return;
      var to = null;
      switch (e.key) {
        case "ArrowLeft": case "k": to = current - 1; break;
        case "ArrowRight": case "j": to = current + 1; break;
        case "Home": to = first; break;
        case "End": to = last; break;
        case "n": case "p":
          to = nextFinding(e.key === "n" ? 1 : -1);
          if (to === null) {
            say(findingSteps.length === 0 ? "This hand has no finding." :
                e.key === "n" ? "No finding after this step: this is the last one." :
                "No finding before this step: this is the first one.");
          }
          break;
        default: return;
      }
      e.preventDefault();  /* also on the slider: one step per key, never two */
      if (to === null || clamp(to) === current) return;
      go(to, "push");
    }, true);
    var copy = root.querySelector("[data-copy-link]");
    if (copy) {
      copy.hidden = false;
      copy.addEventListener("click", function () {
        var url = window.location.origin + href(current);
        function done() { say("Link to " + (current === first ? "the deal" : "step " + current) + " copied."); }
        if (navigator.clipboard && window.isSecureContext) {
          navigator.clipboard.writeText(url).then(done, function () { window.prompt("Copy this link:", url); });
        } else {
          var area = document.createElement("textarea");
          area.value = url;
          area.setAttribute("readonly", "");
          area.className = "sr";
          document.body.appendChild(area);
          area.select();
          var ok = false;
          try { ok = document.execCommand("copy"); } catch (err) { ok = false; }
          document.body.removeChild(area);
          if (ok) done(); else window.prompt("Copy this link:", url);
        }
        copy.setAttribute("data-copied", url);
      });
    }
    window.addEventListener("popstate", function () {
      var n = parseInt(new URL(window.location.href).searchParams.get("step"), 10);
      go(isNaN(n) ? first : n, null);
    });
    if (new URL(window.location.href).searchParams.get("step") !== String(current)) {
      history.replaceState({ step: current }, "", href(current));
    }
    placeMarks();
    refresh();
    status.textContent = "";
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
