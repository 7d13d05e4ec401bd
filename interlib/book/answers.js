/* The in-page answer checker: interlib/book/answers.py's `evaluate`, step for step, on the
   same rule set (RULES, written in by answers.script()). tests/test_answers.py runs both on
   one list of cases and requires the same verdict and message. No dependencies. */
(function (root) {
  "use strict";
  var RULES = /*RULES*/null;
  var CLOSE = RULES.close;
  var M = RULES.messages;

  function fill(t, o) {
    return t.replace(/\{(\w+)\}/g, function (m, k) { return String(o[k]); });
  }
  function fmt(x) {
    var r = Number(x.toPrecision(4));
    if (r === 0) { return "0"; }
    var a = Math.abs(r);
    if (a >= 1e4 && a < 1e15) {
      return String(Math.round(r)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
    }
    if (a >= 1e-3 && a < 1e4) { return String(r); }
    var p = x.toExponential(3).split("e");
    var m = p[0].replace(/0+$/, "").replace(/\.$/, "");
    return m + "e" + parseInt(p[1], 10);
  }
  function tolText(tol) { return fmt(tol * 100) + " %"; }
  function example(unit) { return unit ? "e.g. 12.5 " + unit : "e.g. 12.5"; }
  function answerText(spec) { return fmt(spec.answer) + (spec.unit ? " " + spec.unit : ""); }

  var NUM = /^([-+]?(?:\d[\d,]*(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)\s*([\s\S]*)$/;
  var THOUSANDS = /^[-+]?\d{1,3}(?:,\d{3})+(?:\.\d*)?(?:[eE][-+]?\d+)?$/;
  var DEC_COMMA = /^[-+]?\d+,\d+$/;
  var NONFINITE = /^[-+]?(?:nan|inf|infinity|\u221e)$/i;

  function read(text, unit) {
    var ex = example(unit);
    var t = text.replace(/\u2212/g, "-").replace(/\u00a0/g, " ").replace(/\u202f/g, " ").trim();
    if (t === "") { return ["invalid", fill(M.empty, {example: ex})]; }
    if (t.charAt(0) === "$") { t = t.slice(1).trim() + " $"; }
    if (NONFINITE.test(t.split(" ")[0])) {
      return ["invalid", fill(M.nonfinite, {text: text.trim(), example: ex})];
    }
    var m = NUM.exec(t);
    if (!m) { return ["invalid", fill(M.malformed, {text: text.trim(), example: ex})]; }
    var num = m[1], rest = m[2].trim(), note = "";
    if (num.indexOf(",") >= 0) {
      if (THOUSANDS.test(num)) {
        num = num.replace(/,/g, "");
      } else if (DEC_COMMA.test(num)) {
        var readAs = num.replace(/,/g, ".");
        note = fill(M.decimal_comma, {orig: num, read: readAs});
        num = readAs;
      } else {
        return ["invalid", fill(M.comma, {text: text.trim()})];
      }
    }
    var x = Number(num);
    if (!isFinite(x)) { return ["invalid", fill(M.nonfinite, {text: text.trim(), example: ex})]; }
    var typed = rest ? rest.replace(/ /g, "").replace(/per/g, "/").replace(/\u03bc/g, "\u00b5") : null;
    if (typed === null || typed === unit) { return [x, note, null, x]; }
    var U = RULES.units;
    if (!Object.prototype.hasOwnProperty.call(U, typed)) {
      return ["invalid", fill(M.unknown_unit, {typed: rest, unit: unit || "no unit", example: ex})];
    }
    var tu = U[typed];
    var au = Object.prototype.hasOwnProperty.call(U, unit) ? U[unit] : ["number", 1.0, unit];
    if (tu[0] !== au[0]) {
      return ["invalid", fill(M.dimension, {typed: rest, tdim: RULES.dims[tu[0]],
                                            adim: RULES.dims[au[0]], example: ex})];
    }
    if (tu[2] === au[2]) { return [x, note, null, x]; }
    return [x * tu[1] / au[1], note, rest, x];
  }

  function near(x, target, tol) { return Math.abs(x - target) <= tol * Math.abs(target); }

  function evaluate(spec, text) {
    var unit = spec.unit, ans = spec.answer, tol = spec.tol;
    var r = read(String(text), unit);
    if (r[0] === "invalid") { return r; }
    var x = r[0], note = r[1], typed = r[2], raw = r[3];
    if (typed !== null) {
      var relC = Math.abs(x - ans) / Math.abs(ans), relR = Math.abs(raw - ans) / Math.abs(ans);
      if (relR <= tol && relR < relC) {
        return [relC <= CLOSE * tol ? "close" : "wrong",
                note + fill(M.label, {unit: unit, typed: typed, x: fmt(raw), xc: fmt(x)})];
      }
    }
    var exact = !!spec.exact;
    if (exact && x !== Math.round(x)) {
      return ["invalid", note + fill(M.not_whole, {unit_or_count: unit || "a count", x: fmt(x)})];
    }
    if (exact ? x === ans : near(x, ans, tol)) {
      return ["right", note + fill(M.right, {answer: answerText(spec), why: spec.right})];
    }
    for (var k = 0; k < spec.mistakes.length; k++) {
      if (near(x, spec.mistakes[k][0], tol)) {
        return ["wrong", note + fill(M.mistake, {why: spec.mistakes[k][1]})];
      }
    }
    var dim = unit === "%" ? "percent" : (unit === "" && Math.abs(ans) <= 1) ? "fraction" :
      Object.prototype.hasOwnProperty.call(RULES.units, unit) ? RULES.units[unit][0] : "number";
    for (var s = 0; s < RULES.slips.length; s++) {
      var sl = RULES.slips[s];
      if (sl[1].indexOf(dim) >= 0 && near(x, ans * sl[0], Math.min(tol, sl[3]))) {
        return ["wrong", note + fill(sl[2], {unit: unit || "a plain number"})];
      }
    }
    var hint = x < ans ? spec.low : spec.high;
    if (!exact && near(x, ans, CLOSE * tol)) {
      return ["close", note + fill(M.close, {tol: tolText(tol), hint: hint})];
    }
    return ["wrong", note + fill(x < ans ? M.low : M.high, {hint: hint})];
  }

  var api = {evaluate: evaluate, fmt: fmt, RULES: RULES};
  if (typeof module !== "undefined" && module.exports) { module.exports = api; }
  if (typeof document === "undefined" || root.interlibAnswers) { return; }
  root.interlibAnswers = api;

  var MARK = {right: "\u2714 ", close: "\u2248 ", wrong: "\u2718 ", invalid: "? "};
  function verdict(q) {
    var d = JSON.parse(q.getAttribute("data-check"));
    if (d.kind === "choice") {
      var c = q.querySelector("input[type=radio]:checked");
      if (!c) { return ["invalid", "Pick one of the options first."]; }
      var i = parseInt(c.value, 10);
      return [i === d.correct ? "right" : "wrong", d.feedback[i]];
    }
    return evaluate(d, q.querySelector("input[type=text]").value);
  }
  document.addEventListener("click", function (ev) {
    var b = ev.target.closest ? ev.target.closest(".interlib-quiz-check") : null;
    if (!b) { return; }
    var q = b.closest(".interlib-quiz-q");
    var r = verdict(q);
    var out = q.querySelector(".interlib-quiz-feedback");
    out.setAttribute("data-verdict", r[0]);
    out.textContent = MARK[r[0]] + r[1];
  });
  document.addEventListener("keydown", function (ev) {
    if (ev.key !== "Enter" || !ev.target.closest) { return; }
    var q = ev.target.closest(".interlib-quiz-q");
    if (q && ev.target.matches("input")) { ev.preventDefault(); q.querySelector(".interlib-quiz-check").click(); }
  });
})(typeof window !== "undefined" ? window : this);
