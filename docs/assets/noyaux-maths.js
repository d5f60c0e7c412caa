// Rendu des formules (KaTeX servi par le site lui-même, aucune requête externe).
function renderNoyauxMaths() {
  document.querySelectorAll(".arithmatex").forEach(function (element) {
    renderMathInElement(element, {
      delimiters: [
        { left: "\\(", right: "\\)", display: false },
        { left: "\\[", right: "\\]", display: true },
      ],
      throwOnError: false,
    });
  });
}
document.addEventListener("DOMContentLoaded", renderNoyauxMaths);
