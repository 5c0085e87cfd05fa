// Copy the embed snippet; where the clipboard is not available (an iframe
// without permission, plain http), say how to copy by hand. Runs in the page
// as a Panel js_on_click callback: `source` is the button, `area` the text box, `label` its label,
// `copied` and `by_hand` what it says after a click (in the page's language).
const text = area.value;
const original = label;
const done = (text) => { source.label = text; setTimeout(() => { source.label = original; }, 2000); };
if (navigator.clipboard && window.isSecureContext) {
  navigator.clipboard.writeText(text).then(() => done(copied), () => done(by_hand));
} else {
  done(by_hand);
}
