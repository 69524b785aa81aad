// halluforge case browser: a filterable list of test cases and a drill-down of one case.
// Shared by the HTML report (cases embedded as JSON) and the viewer (cases fetched page by
// page). Every text from a dataset, a model or a person is put in the page with textContent
// or as a Text node; no HTML string is ever built from data, and no URL is taken from data.
(function () {
  "use strict";

  function el(tag, props, children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(props || {})) {
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (key.startsWith("data-") || key === "for" || key === "role") node.setAttribute(key, value);
      else node[key] = value;
    }
    for (const child of children || []) {
      if (child === null || child === undefined) continue;
      node.append(typeof child === "string" ? document.createTextNode(child) : child);
    }
    return node;
  }

  // Text with marked spans; offsets count code points (as Python does), not UTF-16 units.
  function marked(text, spans, cls) {
    const box = el("div", { class: "text" });
    if (text === null || text === undefined) {
      box.append(el("span", { class: "muted", text: "(none)" }));
      return box;
    }
    const chars = Array.from(text);
    let at = 0;
    const sorted = spans.filter((s) => s.start !== null && s.end !== null && s.end > s.start)
      .sort((a, b) => a.start - b.start);
    for (const span of sorted) {
      if (span.start < at || span.end > chars.length) continue;
      box.append(chars.slice(at, span.start).join(""));
      box.append(el("mark", { class: cls + " kind-" + span.kind, title: span.title, text: chars.slice(span.start, span.end).join("") }));
      at = span.end;
    }
    box.append(chars.slice(at).join(""));
    return box;
  }

  function codePointIndex(text, needle) {
    const unit = text.indexOf(needle);
    return unit < 0 ? -1 : Array.from(text.slice(0, unit)).length;
  }

  function editSpans(edits, field) {
    return edits.filter((e) => e.field === field).map((e) => ({
      start: e.start, end: e.end, kind: e.kind, title: e.kind + " edit: " + e.old + " → " + e.new,
    }));
  }

  function oldSpans(edits, field, text) {
    if (!text) return [];
    return edits.filter((e) => e.field === field && e.old).map((e) => {
      const start = codePointIndex(text, e.old);
      return { start: start < 0 ? null : start, end: start < 0 ? null : start + Array.from(e.old).length, kind: e.kind, title: "replaced by " + e.new };
    });
  }

  function fmt(value) {
    return value === null || value === undefined ? "–" : (Math.round(value * 1000) / 1000).toString();
  }

  function labelText(label) {
    if (!label) return null;
    return el("span", { class: "badge human", text: "human: " + label.label + " (" + label.who + ", " + label.when + ")" + (label.note ? " — " + label.note : "") });
  }

  function annotateForm(kind, choices, current, onSave) {
    const form = el("form", { class: "annotate" });
    const name = "label-" + kind + "-" + Math.random().toString(36).slice(2);
    for (const choice of choices) {
      const input = el("input", { type: "radio", name: name, value: choice });
      if (current && current.label === choice) input.checked = true;
      form.append(el("label", {}, [input, " " + choice]));
    }
    const note = el("textarea", { placeholder: "note (optional)", name: "note" });
    note.value = current ? current.note : "";
    const status = el("span", { class: "status" });
    const save = el("button", { type: "submit", text: "Save label" });
    form.append(note, save, status);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const picked = form.querySelector("input[type=radio]:checked");
      if (!picked) { status.className = "status error"; status.textContent = "pick a label"; return; }
      status.className = "status"; status.textContent = "saving…";
      onSave(picked.value, note.value).then(
        (saved) => { status.className = "status saved"; status.textContent = "saved: " + saved.label + " by " + saved.who; },
        (err) => { status.className = "status error"; status.textContent = "not saved: " + err.message; },
      );
    });
    return form;
  }

  function provenanceTable(prov) {
    const table = el("table", { class: "provenance" }, [
      el("tr", {}, ["field", "path", "method", "attempts", "rejected LLM proposals"].map((h) => el("th", { text: h }))),
    ]);
    for (const [field, p] of Object.entries(prov.fields || {})) {
      const rejected = el("td", {});
      if (p.rejected && p.rejected.length) {
        rejected.append(el("ul", {}, p.rejected.map((r) => el("li", { text: r }))));
      } else rejected.textContent = "–";
      table.append(el("tr", { class: "path-" + p.path }, [
        el("td", { text: field }), el("td", { text: p.path }), el("td", { text: p.method || "" }),
        el("td", { class: "num", text: String(p.attempts || 0) }), rejected,
      ]));
    }
    return table;
  }

  function renderCase(box, c, options) {
    box.replaceChildren();
    box.setAttribute("data-case-id", c.id);
    const head = el("div", {}, [
      el("span", { class: "badge", text: c.family }),
      c.variant ? el("span", { class: "badge", text: c.variant }) : null,
      el("span", { class: "badge " + (c.valid ? "good" : "bad"), text: c.valid ? "valid" : "invalid" }),
      el("span", { class: "muted", text: " id " + c.id }),
    ]);
    box.append(head);
    box.append(el("h3", { text: "Question" }), marked(c.question, editSpans(c.edits, "question"), "edit"));
    const questionEdits = c.edits.filter((e) => e.field === "question");
    for (const e of questionEdits) box.append(el("p", { class: "muted", text: e.kind + " changed: " + e.old + " → " + e.new }));
    if (c.original_context === null && c.context !== null) {
      box.append(el("h3", { text: "Context" }), marked(c.context, editSpans(c.edits, "context"), "edit"));
    } else if (c.context !== null || c.original_context !== null) {
      box.append(el("div", { class: "side" }, [
        el("div", {}, [el("h3", { text: "Original context" }), marked(c.original_context, oldSpans(c.edits, "context", c.original_context), "old")]),
        el("div", {}, [el("h3", { text: "Forged context" }), marked(c.context, editSpans(c.edits, "context"), "edit")]),
      ]));
    }
    const answers = el("table", {}, [
      el("tr", {}, [el("th", { text: "expected" }), el("td", { text: (c.expected || []).join(" | ") || "–" })]),
      el("tr", {}, [el("th", { text: "original answers" }), el("td", { text: (c.original_answers || []).join(" | ") || "–" })]),
    ]);
    if (c.reference) answers.append(el("tr", {}, [el("th", { text: "reference" }), el("td", { text: c.reference })]));
    for (const [i, o] of (c.options || []).entries()) {
      answers.append(el("tr", {}, [el("th", { text: "option " + String.fromCharCode(65 + i) }), el("td", { text: o.text + " (" + o.role + ")" })]));
    }
    box.append(el("h3", { text: "Answers" }), answers);
    box.append(el("h3", { text: "Provenance" }), el("p", { class: "muted", text: "generator model: " + (c.provenance.generator_model || "none") }), provenanceTable(c.provenance));
    const checks = Object.entries(c.checks || {});
    if (checks.length) {
      box.append(el("h3", { text: "Checks" }), el("ul", {}, checks.map(([k, v]) => el("li", { class: v ? "" : "error", text: (v ? "✓ " : "✗ ") + k }))));
    }
    if (c.label) box.append(labelText(c.label));
    if (options.annotate) {
      box.append(el("h3", { text: "Your label of this test case" }), annotateForm("case", ["valid", "invalid", "unsure"], c.label,
        (label, note) => options.annotate("test_case", c.id, c.id, label, note)));
    }
    box.append(el("h3", { text: "Responses (" + c.responses.length + ")" }));
    for (const r of c.responses) {
      const part = el("div", { class: "response", "data-response-id": r.id }, [
        el("div", {}, [el("span", { class: "badge", text: r.model }), el("span", { class: "badge", text: r.setting + (r.turn ? " · " + r.turn : "") }),
          el("span", { class: "muted", text: " " + r.latency_s + " s" + (r.cached ? ", cached" : "") })]),
      ]);
      part.append(r.error ? el("div", { class: "text error", text: "error: " + r.error }) : el("div", { class: "text reply", text: r.text }));
      const scores = el("ul", { class: "scores" }, r.scores.map((s) => el("li", {
        text: s.metric + (s.item ? "[" + s.item + "]" : "") + " = " + fmt(s.value) + (s.reason ? " — " + s.reason : ""),
      })));
      part.append(scores);
      const convo = el("details", {}, [el("summary", { text: "conversation (" + r.messages.length + " messages)" })]);
      for (const m of r.messages) convo.append(el("div", {}, [el("strong", { text: m.role }), el("div", { class: "text", text: m.content })]));
      part.append(convo);
      if (r.label) part.append(labelText(r.label));
      if (options.annotate) {
        part.append(annotateForm("response", ["hallucinated", "faithful", "unsure"], r.label,
          (label, note) => options.annotate("response", r.id, c.id, label, note)));
      }
      box.append(part);
    }
  }

  function select(name, label, values) {
    const node = el("select", { name: name }, [el("option", { value: "", text: "any" })]);
    for (const v of values) node.append(el("option", { value: v, text: v }));
    return el("label", {}, [label, node]);
  }

  function mountBrowser(root, source, options) {
    options = options || {};
    const filters = el("form", { class: "filters" });
    const listBox = el("div", { class: "case-list" });
    const pager = el("div", { class: "pager" });
    const detail = el("div", { class: "detail" }, [el("p", { class: "muted", text: "Pick a test case to see it." })]);
    root.replaceChildren(filters, el("div", { class: "browser" }, [el("div", {}, [pager, listBox]), detail]));
    let page = 0;
    let current = {};
    function show(id, row) {
      for (const r of listBox.querySelectorAll("tr.selected")) r.classList.remove("selected");
      if (row) row.classList.add("selected");
      return source.get(id).then((c) => renderCase(detail, c, options),
        (err) => detail.replaceChildren(el("p", { class: "error", text: "cannot load case: " + err.message })));
    }
    function load() {
      return source.list(current, page).then((result) => {
        const table = el("table", {}, [el("tr", {}, ["family", "question", "valid"].map((h) => el("th", { text: h })))]);
        for (const row of result.rows) {
          const open = el("button", { type: "button", class: "open", text: row.question });
          const tr = el("tr", { class: "row", "data-case-id": row.id }, [el("td", { text: row.family + (row.variant ? " · " + row.variant : "") }), el("td", {}, [open]), el("td", { text: row.valid ? "✓" : "✗" })]);
          tr.addEventListener("click", () => show(row.id, tr));
          table.append(tr);
        }
        listBox.replaceChildren(table);
        const pages = Math.max(1, Math.ceil(result.total / result.size));
        const prev = el("button", { type: "button", text: "◀", disabled: page === 0 });
        const next = el("button", { type: "button", text: "▶", disabled: page + 1 >= pages });
        prev.addEventListener("click", () => { page -= 1; load(); });
        next.addEventListener("click", () => { page += 1; load(); });
        pager.replaceChildren(prev, el("span", { class: "count", text: result.total + " test cases · page " + (page + 1) + " of " + pages }), next);
      }, (err) => listBox.replaceChildren(el("p", { class: "error", text: "cannot list cases: " + err.message })));
    }
    // the first page does not wait for the filter choices: both are asked for at once
    const listed = load();
    const faceted = source.facets().then((f) => {
      filters.append(select("family", "family", f.families), select("model", "model", f.models), select("setting", "setting", f.settings),
        select("metric", "metric", f.metrics), select("outcome", "outcome", ["pass", "fail", "none"]), select("path", "provenance path", f.paths));
      filters.append(el("label", {}, ["search", el("input", { type: "search", name: "q", placeholder: "question, context, reply" })]));
      filters.append(el("button", { type: "submit", text: "Filter" }));
      filters.addEventListener("submit", (event) => {
        event.preventDefault();
        current = {};
        for (const [k, v] of new FormData(filters).entries()) if (v) current[k] = v;
        page = 0;
        load();
      });
    });
    return Promise.all([listed, faceted]).then(() => ({ show: show, load: load }));
  }

  // The report's source: filter the embedded cases in memory.
  function memorySource(data, size) {
    const outcome = (value, wanted) => wanted === "none" ? value === null : value !== null && (wanted === "pass" ? value >= 0.5 : value < 0.5);
    function matches(c, f) {
      if (f.family && c.family !== f.family) return false;
      if (f.path && !Object.values(c.provenance.fields).some((p) => p.path === f.path)) return false;
      const rs = c.responses.filter((r) => (!f.model || r.model === f.model) && (!f.setting || r.setting === f.setting));
      if ((f.model || f.setting) && !rs.length) return false;
      if (f.metric || f.outcome) {
        const ok = rs.some((r) => r.scores.some((s) => (!f.metric || s.metric === f.metric) && (!f.outcome || outcome(s.value, f.outcome))));
        if (!ok) return false;
      }
      if (f.q) {
        const q = f.q.toLowerCase();
        const texts = [c.question, c.context || "", c.original_context || "", (c.expected || []).join(" ")].concat(c.responses.map((r) => r.text));
        if (!texts.some((t) => t.toLowerCase().includes(q))) return false;
      }
      return true;
    }
    const byId = new Map(data.cases.map((c) => [c.id, c]));
    return {
      facets: () => Promise.resolve(data.facets),
      list: (f, page) => {
        const hits = data.cases.filter((c) => matches(c, f));
        const rows = hits.slice(page * size, (page + 1) * size).map((c) => ({ id: c.id, family: c.family, variant: c.variant, question: c.question, valid: c.valid }));
        return Promise.resolve({ total: hits.length, size: size, rows: rows });
      },
      get: (id) => byId.has(id) ? Promise.resolve(byId.get(id)) : Promise.reject(new Error("no such case")),
    };
  }

  window.HF = { mountBrowser: mountBrowser, memorySource: memorySource, renderCase: renderCase, el: el };
})();
