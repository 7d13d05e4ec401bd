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
  var ECHO = 80;
  function clip(text) {
    var c = Array.from(text);
    return c.length <= ECHO ? text : c.slice(0, ECHO - 1).join("") + "\u2026";
  }
  function answerText(spec) { return fmt(spec.answer) + (spec.unit ? " " + spec.unit : ""); }
  function has(o, k) { return Object.prototype.hasOwnProperty.call(o, k); }

  var NUM = /^([-+]?(?:\d[\d,]*(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)\s*([\s\S]*)$/;
  var THOUSANDS = /^[-+]?\d{1,3}(?:,\d{3})+(?:\.\d*)?(?:[eE][-+]?\d+)?$/;
  var AMBIGUOUS = /^[-+]?\d{1,3},\d{3}$/;
  var DEC_COMMA = /^[-+]?\d+,\d+$/;
  var NONFINITE = /^[-+]?(?:nan|inf|infinity|\u221e)$/i;

  function read(text, unit) {
    var ex = example(unit);
    var t = text.replace(/\u2212/g, "-").replace(/\u00a0/g, " ").replace(/\u202f/g, " ").trim();
    var shown = clip(text.trim());
    if (t === "") { return ["invalid", fill(M.empty, {example: ex})]; }
    if (t.charAt(0) === "$") { t = t.slice(1).trim() + " $"; }
    if (NONFINITE.test(t.split(" ")[0])) {
      return ["invalid", fill(M.nonfinite, {text: shown, example: ex})];
    }
    var m = NUM.exec(t);
    if (!m) { return ["invalid", fill(M.malformed, {text: shown, example: ex})]; }
    var num = m[1], rest = m[2].trim(), note = "", alt = null;
    if (num.indexOf(",") >= 0) {
      if (THOUSANDS.test(num)) {
        if (AMBIGUOUS.test(num)) {
          alt = num.replace(/,/g, ".");
          note = fill(M.ambiguous_thousands, {orig: num, thousands: num, read: alt});
        }
        num = num.replace(/,/g, "");
      } else if (DEC_COMMA.test(num)) {
        var readAs = num.replace(/,/g, ".");
        note = fill(M.decimal_comma, {orig: num, read: readAs});
        num = readAs;
      } else {
        return ["invalid", fill(M.comma, {text: shown})];
      }
    }
    var x = Number(num);
    if (!isFinite(x)) { return ["invalid", fill(M.nonfinite, {text: shown, example: ex})]; }
    var typed = rest ? rest.replace(/ /g, "").replace(/per/g, "/").replace(/\u03bc/g, "\u00b5") : null;
    var factor = 1.0;
    if (typed !== null && typed !== unit) {
      var U = RULES.units;
      if (!has(U, typed)) {
        return ["invalid", fill(M.unknown_unit, {typed: clip(rest), unit: unit || "no unit", example: ex})];
      }
      var tu = U[typed];
      var au = has(U, unit) ? U[unit] : ["number", 1.0, unit];
      if (tu[0] !== au[0]) {
        return ["invalid", fill(M.dimension, {typed: clip(rest), tdim: RULES.dims[tu[0]],
                                              adim: RULES.dims[au[0]], example: ex})];
      }
      if (tu[2] !== au[2]) { factor = tu[1] / au[1]; } else { typed = null; }
    } else {
      typed = null;
    }
    var other = null;
    if (alt !== null) {
      var y = Number(alt);
      other = [y * factor, y, fill(M.ambiguous_decimal, {orig: m[1], thousands: m[1], read: alt})];
    }
    return [x * factor, note, typed !== null ? rest : null, x, other];
  }

  function near(x, target, tol) { return Math.abs(x - target) <= tol * Math.abs(target); }

  function dimOf(spec) {
    var unit = spec.unit;
    if (unit === "%") { return "percent"; }
    if (unit === "" && Math.abs(spec.answer) <= 1) { return "fraction"; }
    return has(RULES.units, unit) ? RULES.units[unit][0] : "number";
  }

  function binary(spec) {
    var unit = spec.unit, d = dimOf(spec);
    if (d !== "data" && d !== "rate") { return null; }
    var per = unit.slice(-2) === "/s";
    var base = per ? unit.slice(0, -2) : unit;
    if (base.slice(-1) !== "B") { return null; }
    var prefix = base.slice(0, -1);
    if (!has(RULES.binary, prefix)) { return null; }
    var b = RULES.binary[prefix], suffix = per ? "/s" : "";
    return [Math.pow(1.024, b[0]), b[1] + suffix, b[2] + suffix, Math.abs(b[0])];
  }

  function judge(spec, x, note, typed, raw) {
    var unit = spec.unit, ans = spec.answer, tol = spec.tol;
    if (typed !== null) {
      var relC = Math.abs(x - ans) / Math.abs(ans), relR = Math.abs(raw - ans) / Math.abs(ans);
      if (relR <= tol && relR < relC) {
        return [relC <= CLOSE * tol ? "close" : "wrong",
                note + fill(M.label, {unit: unit, typed: typed, x: fmt(raw), xc: fmt(x)})];
      }
    }
    var cap = RULES.binary_cap;
    var b = typed === null ? binary(spec) : null;
    if (b !== null && near(x, ans / b[0], cap) && !near(x, ans, cap)) {
      var power = b[3] === 1 ? "" : "\u00b2\u00b3\u2074".charAt(b[3] - 2);
      var got = b[0] > 1 ? b[1] : b[2], want = b[0] > 1 ? b[2] : b[1];
      return ["wrong", note + fill(M.binary, {got: got, want: want, binary: b[1], decimal: b[2],
                                              power: power, unit: unit})];
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
    var dim = dimOf(spec);
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

  function evaluate(spec, text) {
    if (text === null || text === undefined) {
      return ["invalid", fill(M.unanswered, {example: example(spec.unit)})];
    }
    var r = read(String(text), spec.unit);
    if (r[0] === "invalid") { return r; }
    var got = judge(spec, r[0], "", r[2], r[3]);
    if (r[4] === null) { return [got[0], r[1] + got[1]]; }
    if (got[0] === "right") { return got; }
    var alt = judge(spec, r[4][0], "", r[2], r[4][1]);
    if (alt[0] === "right") { return [alt[0], r[4][2] + alt[1]]; }
    return [got[0], r[1] + got[1]];
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
