// halluforge view: list the runs, page through one run's test cases from the server, label.
(function () {
  "use strict";
  const el = window.HF.el;

  function getJSON(url) {
    return fetch(url, { headers: { Accept: "application/json" } }).then((r) => {
      if (!r.ok) return r.json().then((b) => { throw new Error(b.detail || r.statusText); }, () => { throw new Error(r.statusText); });
      return r.json();
    });
  }

  function apiSource(run) {
    const base = "/api/runs/" + encodeURIComponent(run);
    return {
      facets: () => getJSON(base + "/facets"),
      list: (filters, page) => getJSON(base + "/cases?" + new URLSearchParams({ ...filters, page: String(page) }).toString()),
      get: (id) => getJSON(base + "/cases/" + encodeURIComponent(id)),
    };
  }

  const who = document.getElementById("who");
  function annotate(run) {
    return (target, targetId, caseId, label, note) => fetch("/api/runs/" + encodeURIComponent(run) + "/annotations", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ target: target, target_id: targetId, label: label, note: note, who: who.value }),
    }).then((r) => r.json().then((body) => { if (!r.ok) throw new Error(body.detail || r.statusText); return body; }));
  }

  function open(run) {
    document.getElementById("run").hidden = false;
    document.getElementById("run-title").textContent = "Run " + run.name;
    const links = document.getElementById("run-links");
    links.replaceChildren();
    if (run.report) {
      links.append(el("a", { href: "/runs/" + encodeURIComponent(run.name) + "/files/report.html", target: "_blank", rel: "noopener", text: "report.html" }));
    }
    const root = document.getElementById("case-browser");
    root.removeAttribute("data-ready");
    window.HF.mountBrowser(root, apiSource(run.name), { annotate: annotate(run.name) }).then(() => root.setAttribute("data-ready", "true"));
  }

  getJSON("/api/config").then((config) => { who.value = localStorage.getItem("halluforge-who") || config.who; });
  who.addEventListener("change", () => localStorage.setItem("halluforge-who", who.value));
  getJSON("/api/runs").then((runs) => {
    const table = document.getElementById("run-list");
    table.append(el("tr", {}, ["run", "test cases", "responses", "labels", ""].map((h) => el("th", { text: h }))));
    for (const run of runs) {
      const button = el("button", { type: "button", class: "open", text: "open" });
      button.addEventListener("click", () => open(run));
      table.append(el("tr", { class: "run", "data-run": run.name }, [el("td", { text: run.name }), el("td", { class: "num", text: String(run.test_cases) }),
        el("td", { class: "num", text: String(run.responses) }), el("td", { class: "num", text: String(run.annotations) }), el("td", {}, [button])]));
    }
    table.setAttribute("data-ready", "true");
    if (runs.length === 1) open(runs[0]);
  });
})();
