// Copy the embed snippet; where the clipboard is not available (an iframe
// without permission, plain http), say how to copy by hand. Runs in the page
// as a Bokeh CustomJS callback with `area` (the text box), `button` and its `label`.
const text = area.value;
const original = label;
const done = (label) => { button.label = label; setTimeout(() => { button.label = original; }, 2000); };
if (navigator.clipboard && window.isSecureContext) {
  navigator.clipboard.writeText(text).then(() => done("Copied"), () => done("Select the code and copy it"));
} else {
  done("Select the code and copy it");
}
