/* duizhao: render arithmatex's generic output (\(…\), \[…\]) with KaTeX, served by the site.
   This file loads KaTeX and its auto-render extension itself, one after the other: Material's
   instant navigation runs the scripts of the content it swaps in in no fixed order, and
   auto-render must find KaTeX when it runs. It then renders every page that Material announces
   on `document$`. Instant navigation runs this file again on each page that links it, hence the
   guard; this file also runs before Material's bundle defines `document$` on a first load. */
(function () {
  "use strict";
  if (window.duizhaoMath) return;
  window.duizhaoMath = true;

  // Relative to this file, assets/duizhao/math.js (reader/assets.py puts KaTeX there).
  var BASE = document.currentScript ? document.currentScript.src : document.baseURI;
  var LIBRARIES = ["vendor/katex/katex.min.js", "vendor/katex/contrib/auto-render.min.js"];
  var ready = false;

  function load(names, done) {
    if (!names.length) return done();
    var script = document.createElement("script");
    script.src = new URL(names[0], BASE).href;
    script.onload = function () {
      load(names.slice(1), done);
    };
    document.head.appendChild(script);
  }

  function render() {
    // Only the pages that link this file asked for KaTeX (and have its stylesheet): after
    // instant navigation this runs for every page, the site's own math pages too.
    if (!ready || !document.querySelector('script[src$="/duizhao/math.js"]')) return;
    var nodes = document.querySelectorAll(".arithmatex");
    for (var i = 0; i < nodes.length; i++) {
      window.renderMathInElement(nodes[i], {
        delimiters: [
          { left: "\\(", right: "\\)", display: false },
          { left: "\\[", right: "\\]", display: true }
        ],
        throwOnError: false
      });
    }
  }

  function start() {
    if (window.document$ && typeof window.document$.subscribe === "function") {
      window.document$.subscribe(render);
    } else {
      render();
    }
  }

  if (typeof window.renderMathInElement === "function") {
    ready = true;
  } else {
    load(LIBRARIES, function () {
      ready = true;
      render();
    });
  }
  // Material's bundle (and its `document$`) runs after this file on a first load.
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
