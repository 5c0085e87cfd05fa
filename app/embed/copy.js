// Copy the embed code. Inside an iframe the clipboard API is usually refused, so then the
// text box's code is selected and copied the old way; if that fails too, it stays selected
// and the button says how to copy it by hand. Runs in the page as a Panel js_on_click
// callback: `source` is the button, `area` the text box, `label` the button's label and
// `said` the three outcomes' words ({copied, selected}).
const view = Bokeh.index.find_one(area);
const box = view && view.input_el;
const restore = () => { source.label = label; };
const done = (text, ms) => { source.label = text; setTimeout(restore, ms); };
const byHand = () => {
  if (!box) return done(said.selected, 6000);
  box.focus();
  box.select();
  let ok = false;
  try { ok = document.execCommand("copy"); } catch (error) { ok = false; }
  done(ok ? said.copied : said.selected, ok ? 2000 : 6000);
};
if (navigator.clipboard && window.isSecureContext) {
  navigator.clipboard.writeText(area.value).then(() => done(said.copied, 2000), byHand);
} else {
  byHand();
}
