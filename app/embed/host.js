// For the page that embeds specstep: sizes each specstep iframe to the height its page
// reports (app/embed/page.js posts {type: "specstep:height", height} on every change).
// Include once per page, anywhere; it does nothing else.
(function () {
  if (window.specstepHost) return;
  window.specstepHost = true;
  window.addEventListener("message", function (event) {
    var data = event.data;
    if (!data || data.type !== "specstep:height" || !(data.height > 0)) return;
    var frames = document.getElementsByTagName("iframe");
    for (var i = 0; i < frames.length; i++) {
      if (frames[i].contentWindow === event.source) {
        frames[i].style.height = Math.min(Math.ceil(data.height), 20000) + "px";
      }
    }
  });
})();
