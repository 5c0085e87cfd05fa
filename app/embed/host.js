// For the page that embeds specstep: sizes each specstep iframe to the height its page
// reports (app/page/page.js posts {type: "specstep:height", height} on every change), and
// tells each one the page's colour scheme ({type: "specstep:scheme", scheme}), live.
// Only iframes the snippet marked with data-specstep count; when the mark holds an origin,
// only messages from that origin. Include once per page, anywhere; it does nothing else.
(function () {
  if (window.specstepHost) return;
  window.specstepHost = true;

  function specstepFrames() {
    return document.querySelectorAll("iframe[data-specstep]");
  }

  // The marked frame whose page sent event, or null (an unrelated frame, or another origin).
  function senderOf(event) {
    var frames = specstepFrames();
    for (var i = 0; i < frames.length; i++) {
      if (frames[i].contentWindow !== event.source) continue;
      var origin = frames[i].getAttribute("data-specstep");
      return !origin || origin === event.origin ? frames[i] : null;
    }
    return null;
  }

  // The page's scheme: Material's palette attribute, else the luminance of a painted
  // background, else the page's color-scheme (with the reader's setting when it allows both).
  function luminance(colour) {
    var rgb = colour.match(/[\d.]+/g);
    if (!rgb || rgb.length < 3 || (rgb.length > 3 && Number(rgb[3]) < 0.5)) return null;
    var lin = rgb.slice(0, 3).map(function (c) {
      c = Number(c) / 255;
      return c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2];
  }
  function hostScheme() {
    var material = (document.body && document.body.getAttribute("data-md-color-scheme")) ||
      document.documentElement.getAttribute("data-md-color-scheme");
    if (material === "slate") return "dark";
    if (material === "default") return "light";
    var painted = [document.body, document.documentElement];
    for (var i = 0; i < painted.length; i++) {
      var l = painted[i] ? luminance(getComputedStyle(painted[i]).backgroundColor) : null;
      if (l !== null) return l < 0.18 ? "dark" : "light";
    }
    var allowed = getComputedStyle(document.documentElement).colorScheme || "";
    var dark = /\bdark\b/.test(allowed), light = /\blight\b/.test(allowed);
    if (dark && (!light || window.matchMedia("(prefers-color-scheme: dark)").matches)) return "dark";
    return "light";
  }

  // Frames whose page has reported: only they are told (a frame still on about:blank has
  // another origin, and a message to it would be an error in the console).
  var heard = [];

  function tell(frame, scheme) {
    if (!frame.contentWindow) return;
    var origin = frame.getAttribute("data-specstep") || "*";
    frame.contentWindow.postMessage({ type: "specstep:scheme", scheme: scheme }, origin);
  }

  var scheme = null;
  function follow() {
    var now = hostScheme();
    if (now === scheme) return;
    scheme = now;
    heard = heard.filter(function (frame) { return frame.isConnected; });
    for (var i = 0; i < heard.length; i++) tell(heard[i], scheme);
  }

  window.addEventListener("message", function (event) {
    var data = event.data;
    if (!data || data.type !== "specstep:height" || !(data.height > 0)) return;
    var frame = senderOf(event);
    if (!frame) return;
    frame.style.height = Math.min(Math.ceil(data.height), 20000) + "px";
    if (heard.indexOf(frame) < 0) heard.push(frame);
    // Its page says which scheme it was told (none yet after a load): tell it when that is not ours.
    if (data.scheme !== (scheme || (scheme = hostScheme()))) tell(frame, scheme);
  });

  // The scheme changes with an attribute (a palette toggle) or the reader's setting;
  // a background may fade in, so look again a little later too.
  var later = null;
  function changed() {
    follow();
    clearTimeout(later);
    later = setTimeout(follow, 400);
  }
  function observe() {
    var watch = new MutationObserver(changed);
    var options = { attributes: true, attributeFilter: ["class", "style", "data-md-color-scheme", "data-theme"] };
    watch.observe(document.documentElement, options);
    if (document.body) watch.observe(document.body, options);
    if (window.matchMedia) {
      var query = window.matchMedia("(prefers-color-scheme: dark)");
      if (query.addEventListener) query.addEventListener("change", changed);
    }
    follow();
    // A frame whose page reported before this script was listening (it came after the frame) hears
    // hello and reports again; its origin is not known yet, and hello says nothing, so "*".
    var frames = specstepFrames();
    for (var i = 0; i < frames.length; i++) {
      if (frames[i].contentWindow) frames[i].contentWindow.postMessage({ type: "specstep:hello" }, "*");
    }
  }
  if (document.body) observe();
  else document.addEventListener("DOMContentLoaded", observe);
})();
