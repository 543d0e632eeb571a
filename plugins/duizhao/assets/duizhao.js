/* duizhao reader: reading modes (中文 / English / 对照), paragraph permalinks.
   Works with Material's instant navigation: everything that depends on the page runs on each
   `document$` emission; the header control is created once and survives navigation.
   Without JavaScript nothing here runs and both languages show. */
(function () {
  "use strict";
  // Instant navigation runs this file again when it swaps in a page that links it.
  if (window.duizhaoReader) return;
  window.duizhaoReader = true;

  var KEY = "duizhao.mode"; // also read by the inline <head> script (reader.py)
  var MODES = [
    { value: "zh", label: "中文", short: "中", title: "只看中文译文" },
    { value: "en", label: "English", short: "En", title: "只看英文原文" },
    { value: "both", label: "对照", short: "对照", title: "原文与译文对照" }
  ];
  var root = document.documentElement;

  function isMode(value) {
    return value === "zh" || value === "en" || value === "both";
  }

  function storedMode() {
    try {
      var value = window.localStorage.getItem(KEY);
      return isMode(value) ? value : "both";
    } catch (error) {
      return root.getAttribute("data-dz-mode") || "both"; // storage blocked: keep this page's
    }
  }

  function applyMode(mode) {
    root.setAttribute("data-dz-mode", mode);
    var inputs = document.querySelectorAll(".dz-mode input");
    for (var i = 0; i < inputs.length; i++) inputs[i].checked = inputs[i].value === mode;
  }

  function saveMode(mode) {
    try {
      window.localStorage.setItem(KEY, mode);
    } catch (error) {
      /* private mode or storage disabled: the choice lasts for this page only */
    }
  }

  /* A native radio group: Tab reaches it, arrow keys switch, screen readers announce
     "阅读模式, radio group" with the checked mode. */
  function createControl() {
    var group = document.createElement("div");
    group.className = "dz-mode";
    group.setAttribute("role", "radiogroup");
    group.setAttribute("aria-label", "阅读模式");
    MODES.forEach(function (mode) {
      var label = document.createElement("label");
      label.className = "dz-mode__option";
      label.title = mode.title;
      var input = document.createElement("input");
      input.type = "radio";
      input.name = "dz-mode";
      input.value = mode.value;
      input.className = "dz-mode__input";
      input.addEventListener("change", function () {
        if (!input.checked) return;
        saveMode(mode.value);
        applyMode(mode.value);
      });
      var text = document.createElement("span");
      text.className = "dz-mode__label";
      text.lang = mode.value === "en" ? "en" : "zh-CN";
      text.textContent = mode.label;
      text.setAttribute("data-short", mode.short); // shown instead on phones (duizhao.css)
      label.appendChild(input);
      label.appendChild(text);
      group.appendChild(label);
    });
    return group;
  }

  function mountControl() {
    var control = document.querySelector(".dz-mode");
    if (!control) {
      var header = document.querySelector(".md-header__inner");
      if (!header) return;
      control = createControl();
      var before =
        header.querySelector("[data-md-component=palette]") ||
        header.querySelector(".md-search") ||
        null;
      header.insertBefore(control, before);
    }
    // Only pages with paragraph blocks have something to switch.
    control.hidden = !document.querySelector(".dz-para");
  }

  /* Mark the paragraph named by the URL fragment (also after instant navigation, where
     :target does not follow history.pushState). */
  function markTarget() {
    var previous = document.querySelectorAll(".dz-para--target");
    for (var i = 0; i < previous.length; i++) previous[i].classList.remove("dz-para--target");
    var id = decodeURIComponent(window.location.hash.slice(1));
    if (!id) return;
    var target = document.getElementById(id);
    // An alias (an old ID kept by duizhao update) stands for the block it is in.
    if (target && target.classList.contains("dz-alias")) target = target.parentElement;
    if (target && target.classList.contains("dz-para")) target.classList.add("dz-para--target");
  }

  var toastTimer = 0;
  function announce(message) {
    var toast = document.querySelector(".dz-toast");
    if (!toast) {
      toast = document.createElement("div");
      toast.className = "dz-toast";
      toast.setAttribute("role", "status");
      toast.setAttribute("aria-live", "polite");
      document.body.appendChild(toast);
    }
    toast.textContent = message;
    toast.classList.add("dz-toast--visible");
    window.clearTimeout(toastTimer);
    toastTimer = window.setTimeout(function () {
      toast.classList.remove("dz-toast--visible");
    }, 2000);
  }

  function copyFallback(text) {
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    var ok = false;
    try {
      ok = document.execCommand("copy");
    } finally {
      document.body.removeChild(area);
    }
    return ok;
  }

  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text).then(
        function () { return true; },
        function () { return copyFallback(text); }
      );
    }
    return Promise.resolve(copyFallback(text));
  }

  /* Capture phase: the click is handled here before Material's instant navigation sees it.
     Modified clicks (new tab, new window) keep their browser meaning. */
  document.addEventListener(
    "click",
    function (event) {
      var link = event.target.closest ? event.target.closest("a.dz-pid") : null;
      if (!link || event.button !== 0) return;
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      event.stopPropagation();
      // Not the href: instant navigation rewrites it to an absolute URL.
      var id = decodeURIComponent(new URL(link.href, window.location.href).hash.slice(1));
      var url = window.location.href.split("#")[0] + "#" + id;
      window.history.replaceState(window.history.state, "", url);
      markTarget();
      copyText(url).then(function (ok) {
        announce(ok ? "已复制段落链接 " + id : "复制失败，请从地址栏复制链接");
      });
    },
    true
  );

  window.addEventListener("hashchange", markTarget);

  // A mode chosen in another tab applies here too.
  window.addEventListener("storage", function (event) {
    if (event.key === KEY && isMode(event.newValue)) applyMode(event.newValue);
  });

  function onPage() {
    // The toast lives outside the swapped content, and its stylesheet leaves with a page of
    // duizhao's: a page change ends the announcement.
    var toast = document.querySelector(".dz-toast");
    if (toast) toast.parentNode.removeChild(toast);
    mountControl();
    applyMode(storedMode());
    markTarget();
  }

  function start() {
    if (window.document$ && typeof window.document$.subscribe === "function") {
      window.document$.subscribe(onPage);
    } else {
      onPage();
    }
  }

  // On a first load this file runs before Material's bundle, which defines `document$`; after
  // instant navigation `document$` exists (and replays the page it announced last).
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
