// Render every \( … \) and \[ … \] that pymdownx.arithmatex left in the page,
// with the KaTeX copy served from this site. Material swaps pages without a
// full reload, so render on each document$ emission rather than once.
(function () {
  function renderMath(root) {
    renderMathInElement(root, {
      delimiters: [
        { left: "$$", right: "$$", display: true },
        { left: "\\[", right: "\\]", display: true },
        { left: "\\(", right: "\\)", display: false },
        { left: "$", right: "$", display: false },  // notebook markdown cells
      ],
      throwOnError: false,
      // \htmlData carries a printed number's fact key into the HTML.
      trust: function (context) { return context.command === "\\htmlData"; },
    });
  }
  if (typeof document$ !== "undefined") {
    document$.subscribe(function () { renderMath(document.body); });
  } else {
    document.addEventListener("DOMContentLoaded", function () { renderMath(document.body); });
  }
})();
