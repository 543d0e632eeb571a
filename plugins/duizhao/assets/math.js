/* duizhao: render arithmatex's generic output (\(…\), \[…\]) with KaTeX, served by the site.
   Runs on every page that Material's instant navigation announces; instant navigation runs
   this file again when it swaps in a page that links it, hence the guard. */
(function () {
  "use strict";
  if (window.duizhaoMath) return;
  window.duizhaoMath = true;

  function render() {
    if (typeof window.renderMathInElement !== "function") return;
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

  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(render);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", render);
  } else {
    render();
  }
})();
