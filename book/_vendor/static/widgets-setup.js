// Set-up for the self-hosted ipywidgets embed manager on widget pages (see ../README.md).
// Hand-written; tools/vendor_assets.sh leaves this file alone. _config.yml loads it before
// require.js and embed-amd.js (sphinx.config.nb_ipywidgets_js).
(function () {
  // 1. RequireJS configuration. require.js reads a global `require` object as its config.
  //    embed-amd.js defines its bundles as named AMD modules; each bundle derives its
  //    webpack public path (where it fetches its icon fonts) from its module URL, which
  //    RequireJS computes from `paths`. Point them all at _static/html-manager/, where the
  //    fonts are; otherwise the fonts are requested next to the page and 404.
  var here = document.currentScript.src.replace(/[?#].*$/, "").replace(/[^/]*$/, ""); // .../_static/
  var names = [
    "@jupyter-widgets/base",
    "@jupyter-widgets/base7",
    "@jupyter-widgets/controls",
    "@jupyter-widgets/controls7",
    "@jupyter-widgets/html-manager",
    "@jupyter-widgets/html-manager/dist/libembed-amd",
  ];
  var paths = {};
  names.forEach(function (name) {
    paths[name] = here + "html-manager/" + name.replace(/[@/]/g, "_");
  });
  window.require = { paths: paths };

  // 2. MathJax 2 shim. The widgets' typeset() (descriptions, labels) calls the MathJax 2 API
  //    `MathJax.Hub.Queue(["Typeset", MathJax.Hub, element])` whenever window.MathJax exists;
  //    the site uses MathJax 3, which has no Hub, so every widget would throw. Widgets render
  //    on window "load"; this listener is registered first, so it runs first.
  window.addEventListener("load", function () {
    var mj = window.MathJax;
    if (!mj || mj.Hub) return;
    mj.Hub = {
      Queue: function (job) {
        var element = job && job[2];
        if (!element || !mj.startup || !mj.typesetPromise) return;
        mj.startup.promise
          .then(function () { return mj.typesetPromise([element]); })
          .catch(function (err) { console.warn("MathJax typeset of a widget failed:", err); });
      },
    };
  });
})();
