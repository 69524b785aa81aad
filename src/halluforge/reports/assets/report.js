// halluforge report: draw the embedded Vega-Lite specs and mount the case browser.
// Data comes from <script type="application/json"> blocks (parsed, never evaluated).
(function () {
  "use strict";
  function data(id) {
    const node = document.getElementById(id);
    return node ? JSON.parse(node.textContent) : null;
  }
  const plots = data("hf-plots") || [];
  for (const [i, spec] of plots.entries()) {
    const target = document.getElementById("plot-" + i);
    if (!target || !window.vegaEmbed) continue;
    // ast + the expression interpreter: Vega never calls eval/new Function (the page's CSP forbids it)
    window.vegaEmbed(target, spec, { ast: true, actions: false, renderer: "svg", defaultStyle: false }).then(
      () => target.setAttribute("data-rendered", "true"),
      (err) => { target.textContent = "plot failed: " + err.message; target.setAttribute("data-rendered", "error"); },
    );
  }
  const cases = data("hf-cases");
  const root = document.getElementById("case-browser");
  if (cases && root) {
    window.HF.mountBrowser(root, window.HF.memorySource(cases, 50), {}).then((browser) => {
      const wanted = /^#case=(.+)$/.exec(window.location.hash);
      if (wanted) browser.show(decodeURIComponent(wanted[1]), null);
      root.setAttribute("data-ready", "true");
    });
  }
})();
