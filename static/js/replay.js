// The replay page (/tables/<id>/replay/, docs/tables.md "Replay"): steps through a finished
// table's record. The server replayed the record through the engine and serves each step's
// full view (every hand visible); this file only walks through them and hands each one to the
// table's own renderers (static/js/table.js with the game's module), so a replay looks like the
// table. It holds no rules.
//
// A position is (deal, p): p = 0 is the deal as dealt, p = j the table after the deal's j-th
// action. The page brings one deal; the others are fetched from `replay.json?deal=K` when the
// viewer steps into them (and the next one ahead of time).
(function (M) {
  "use strict";

  const cfg = M.cfg;
  const { h, fill } = M;
  const S = cfg.strings || {};
  const summary = cfg.summary;
  const nDeals = summary.deals.length;
  const token = new URLSearchParams(window.location.search).get("token");
  const $ = (id) => document.getElementById(id);

  const loaded = new Map([[cfg.initial.deal, cfg.initial]]);
  const loading = new Map(); // deal -> Promise
  let deal = cfg.initial.deal;
  let pos = 0;
  let failed = false;

  // The actions before each deal: "step N of M" counts the record's actions.
  const before = [];
  summary.deals.reduce((n, d, k) => ((before[k] = n), n + d.actions), 0);

  const fmt = (text, params) => String(text || "").replace(/%\((\w+)\)s/g, (m, key) => (key in params ? params[key] : m));

  // ------------------------------------------------------------------ fetching deals
  function fetchDeal(k) {
    if (loaded.has(k)) return Promise.resolve(loaded.get(k));
    if (!loading.has(k)) {
      const query = new URLSearchParams({ deal: String(k) });
      if (token) query.set("token", token);
      const promise = fetch(`${cfg.stepsUrl}?${query}`, { credentials: "same-origin", headers: { Accept: "application/json" } })
        .then((r) => {
          if (!r.ok) throw new Error(`HTTP ${r.status}`);
          return r.json();
        })
        .then((data) => {
          loaded.set(k, data);
          loading.delete(k);
          return data;
        })
        .catch((err) => {
          loading.delete(k);
          throw err;
        });
      loading.set(k, promise);
    }
    return loading.get(k);
  }

  function prefetch(k) {
    if (k >= 0 && k < nDeals && !loaded.has(k)) fetchDeal(k).catch(() => {});
  }

  // ------------------------------------------------------------------ moving
  const lastPos = (k) => summary.deals[k].actions;

  function go(k, p) {
    k = Math.max(0, Math.min(nDeals - 1, k));
    if (!loaded.has(k)) {
      $("replay-label").textContent = S.loading;
      fetchDeal(k).then(
        () => go(k, p),
        () => {
          failed = true;
          $("replay-label").textContent = S.loadFailed;
        },
      );
      return;
    }
    failed = false;
    deal = k;
    pos = Math.max(0, Math.min(lastPos(k), p === Infinity ? lastPos(k) : p));
    draw();
    prefetch(k + 1);
  }

  function next() {
    if (pos < lastPos(deal)) go(deal, pos + 1);
    else if (deal < nDeals - 1) go(deal + 1, 0);
  }
  function prev() {
    if (pos > 0) go(deal, pos - 1);
    else if (deal > 0) go(deal - 1, Infinity);
  }
  const first = () => go(0, 0);
  const last = () => go(nDeals - 1, Infinity);
  const atStart = () => deal === 0 && pos === 0;
  const atEnd = () => deal === nDeals - 1 && pos === lastPos(deal);

  // ------------------------------------------------------------------ one step as a table state
  function stateAt(k, p) {
    const data = loaded.get(k);
    const step = p === 0 ? data.start : data.steps[p - 1];
    const end = k === nDeals - 1 && p === lastPos(k) && summary.result.complete;
    const view = Object.assign({}, step.view, { results: step.deal_over ? data.results_after : data.results });
    return {
      type: "state",
      status: end ? "finished" : "playing",
      seat: null,
      seq: before[k] + p,
      to_act: view.to_act || [],
      view,
      legal: [],
      clock: null,
      result: end ? summary.result : null,
    };
  }

  function labelNode(parts) {
    return (parts || []).map((part) => {
      if ("seat" in part) return h("strong", null, M.seatName(part.seat));
      if ("cards" in part) {
        return (part.cards || []).map((c, i) => [i ? " " : null, h("span", { class: `card-text suit-${M.suitOf(c)}`, title: M.cardName(c) }, M.cardText(c))]);
      }
      if ("suit" in part) {
        const d = M.deck();
        return h("span", { class: `card-text suit-${part.suit}` }, `${M.glyphOf(part.suit)} ${d.suit[part.suit] || part.suit}`);
      }
      return part.text || "";
    }).flat(Infinity);
  }

  function draw() {
    const data = loaded.get(deal);
    const step = pos === 0 ? data.start : data.steps[pos - 1];
    const state = stateAt(deal, pos);
    M.show(state);
    drawSummary(step);
    drawHands(data, state.view, step);
    drawControls(data, state, step);
    drawAnalysis();
    document.title = `${cfg.gameName} · ${S.title} · ${fmt(S.dealOf, { n: deal + 1, m: nDeals })} · Mediana`;
  }

  // A deal's last step shows how it was scored (the engine's summary, static/js/summary.js).
  function drawSummary(step) {
    const node = $("replay-summary");
    if (!node) return;
    const summary = step.deal_over && step.summary;
    if (summary && M.summary) fill(node, h("h2", null, S.summary || M.gettext("How the deal was scored")), M.summary.body(summary));
    node.hidden = !(summary && M.summary);
  }

  function drawHands(data, view, step) {
    const toAct = new Set(view.to_act || []);
    const played = step.action && step.action.seat;
    M.fill($("legend"), M.legendOf());
    const rows = (view.hands || []).map((cards, s) =>
      h(
        "div",
        { class: `replay-hand${toAct.has(s) ? " turn" : ""}${played === s ? " acted" : ""}`, dataset: { handSeat: String(s) } },
        h("span", { class: "replay-hand-name" }, M.seatName(s)),
        h(
          "div",
          { class: "replay-hand-cards" },
          cards.length ? M.sortCards(cards, view).map((c) => M.cardFace(c)) : h("span", { class: "muted" }, S.noCards),
        ),
      ),
    );
    if ((data.stock || []).length) {
      rows.push(
        h(
          "div",
          { class: "replay-hand stock", dataset: { handSeat: "stock" } },
          h("span", { class: "replay-hand-name muted" }, S.stock),
          h("div", { class: "replay-hand-cards" }, M.sortCards(data.stock, view).map((c) => M.cardFace(c))),
        ),
      );
    }
    fill($("hands"), rows);
  }

  function drawControls(data, state, step) {
    $("replay-first").disabled = atStart();
    $("replay-prev").disabled = atStart();
    $("replay-next").disabled = atEnd();
    $("replay-last").disabled = atEnd();
    const select = $("replay-deal");
    if (select.options.length !== nDeals) {
      fill(
        select,
        summary.deals.map((d, k) => h("option", { value: String(k) }, fmt(S.dealOption, { n: k + 1, dealer: M.seatName(d.dealer) }))),
      );
    }
    select.value = String(deal);
    const position = $("replay-position");
    position.textContent = `${fmt(S.dealOf, { n: deal + 1, m: nDeals })} · ${fmt(S.stepOf, { n: before[deal] + pos, m: summary.actions })}`;
    position.dataset.deal = String(deal);
    position.dataset.step = String(before[deal] + pos);
    const parts = labelNode(step.label);
    const marked = markAt(deal, pos);
    if (marked && marked.mark) parts.unshift(markNode(marked));
    const toAct = state.to_act || [];
    if (state.status === "finished") parts.push(" — ", S.matchOver);
    else if (step.deal_over) parts.push(" — ", S.dealOver);
    else if (toAct.length) parts.push(h("span", { class: "muted replay-next" }, ` — ${fmt(S.toAct, { who: toAct.map(M.seatName).join(", ") })}`));
    fill($("replay-label"), parts);
  }


  // ------------------------------------------------------------------ game analysis
  // docs/bots.md, "Game analysis": the server's evaluation of each person's decision; here the
  // mark of the step shown (?!, ?, ??), the better decision and its cost, the deal's summary.
  const SYMBOL = { inaccuracy: "?!", mistake: "?", blunder: "??" };
  let analysis = cfg.analysis || { status: "none" };
  let polling = null;

  const markAt = (k, p) => {
    const result = analysis.result;
    if (!result || p === 0) return null;
    return result.decisions.find((e) => e.deal === k && e.index === p - 1) || null;
  };

  function markNode(entry) {
    return h("span", { class: `analysis-mark ${entry.mark}`, title: S[entry.mark] || entry.mark, dataset: { mark: entry.mark } }, SYMBOL[entry.mark]);
  }

  // The double-dummy loss of a card (games.core.solver, where it could be computed), worded by
  // the server in the game's unit.
  const ddLine = (entry) => (entry.dd_text ? h("p", { class: "muted analysis-dd", dataset: { ddLoss: String(entry.dd_loss) } }, entry.dd_text) : null);

  function drawAnalysis() {
    const form = $("analyse-form");
    if (form) form.hidden = !analysis.may_request;
    const status = $("analysis-status");
    const stepBox = $("analysis-step");
    const dealBox = $("analysis-deal");
    if (!status) return;
    status.dataset.status = analysis.status;
    status.textContent = analysis.status === "queued" || analysis.status === "running" ? S.analysing : analysis.status === "failed" ? S.analysisFailed : analysis.detail || "";
    const result = analysis.result;
    if (!result) {
      fill(stepBox);
      fill(dealBox);
      hideIfEmpty();
      return;
    }
    const entry = markAt(deal, pos);
    if (entry && entry.mark) {
      fill(
        stepBox,
        h(
          "p",
          { dataset: { deal: String(entry.deal), index: String(entry.index) } },
          markNode(entry),
          h("strong", null, S[entry.mark]),
          " — ",
          S.better,
          " ",
          labelNode(entry.best_label),
          " · ",
          h("span", { class: "analysis-cost" }, entry.cost_text),
        ),
        ddLine(entry),
      );
    } else if (entry) {
      fill(stepBox, h("p", { class: "muted" }, S.goodMove), ddLine(entry));
    } else fill(stepBox);
    // The whole match per person, then this deal: its marks and what they cost (they add up to
    // the marked decisions' costs), the double-dummy line, the marks to jump to.
    const rows = [];
    const here = result.deals[deal];
    for (const [seat, p] of Object.entries(result.players)) {
      const who = M.seatName(Number(seat));
      rows.push(h("p", { class: "analysis-match", dataset: { accuracy: String(seat) } }, fmt(p.text, { who })));
      const mine = here && here.seats[seat];
      if (mine) {
        rows.push(h("p", { class: "analysis-this-deal", dataset: { dealLoss: String(seat) } }, fmt(mine.loss_text, { who })));
        if (mine.dd_text) rows.push(h("p", { class: "muted", dataset: { doubleDummy: String(seat) } }, fmt(mine.dd_text, { who })));
      }
    }
    const marked = result.decisions.filter((e) => e.deal === deal && e.mark);
    if (marked.length) {
      rows.push(
        h(
          "ul",
          { class: "analysis-jumps" },
          marked.map((e) => {
            const button = h("button", { type: "button", dataset: { jump: `${e.deal}/${e.index}` } }, SYMBOL[e.mark], " ", fmt(S.stepOf, { n: before[e.deal] + e.index + 1, m: summary.actions }));
            button.addEventListener("click", () => go(e.deal, e.index + 1));
            return h("li", null, button);
          }),
        ),
      );
    }
    fill(dealBox, rows);
    hideIfEmpty();
  }

  // The analysis box shows only when it has something: the button, a status, a hint, a result.
  function hideIfEmpty() {
    const box = $("analysis");
    if (!box) return;
    const form = $("analyse-form");
    const shown = (form && !form.hidden) || $("analysis-hint") || $("analysis-status").textContent || $("analysis-deal").childNodes.length;
    box.hidden = !shown;
  }

  // One status request at a time, every 3 s, until the job is done or failed.
  const POLL_MS = 3000;
  function poll() {
    if (polling) return;
    const once = () => {
      fetch(cfg.analysisUrl + (token ? `?token=${encodeURIComponent(token)}` : ""), { credentials: "same-origin", headers: { Accept: "application/json" } })
        .then((r) => (r.ok ? r.json() : null))
        .catch(() => null)
        .then((data) => {
          if (data) {
            analysis = data;
            draw();
          }
          if (data && data.status !== "queued" && data.status !== "running") polling = null;
          else polling = window.setTimeout(once, POLL_MS);
        });
    };
    polling = window.setTimeout(once, POLL_MS);
  }

  function requestAnalysis(event) {
    event.preventDefault();
    const form = event.currentTarget;
    const csrf = form.querySelector("[name=csrfmiddlewaretoken]");
    $("analyse").disabled = true;
    fetch(form.action, { method: "POST", credentials: "same-origin", headers: { Accept: "application/json", "X-CSRFToken": csrf ? csrf.value : "" } })
      .then((r) => r.json().then((data) => ({ ok: r.ok, data })))
      .then(({ ok, data }) => {
        $("analyse").disabled = false;
        if (!ok) {
          analysis = Object.assign({}, analysis, { detail: data.detail });
          draw();
          return;
        }
        analysis = data;
        draw();
        if (data.status === "queued" || data.status === "running") poll();
      })
      .catch(() => {
        $("analyse").disabled = false;
      });
  }

  // ------------------------------------------------------------------ input
  function onKey(event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT")) return;
    const keys = {
      ArrowRight: next,
      ArrowLeft: prev,
      Home: first,
      End: last,
      PageDown: () => go(deal + 1, 0),
      PageUp: () => go(deal - 1, 0),
    };
    const run = keys[event.key];
    if (!run) return;
    event.preventDefault();
    run();
  }

  function start() {
    $("replay-first").addEventListener("click", first);
    $("replay-prev").addEventListener("click", prev);
    $("replay-next").addEventListener("click", next);
    $("replay-last").addEventListener("click", last);
    const select = $("replay-deal");
    select.addEventListener("change", () => {
      go(Number(select.value), 0);
      select.blur(); // the arrow keys step again
    });
    document.addEventListener("keydown", onKey);
    const form = $("analyse-form");
    if (form) form.addEventListener("submit", requestAnalysis);
    if (analysis.status === "queued" || analysis.status === "running") poll();
    // `?step=P` (with `?deal=K`): opened at a decision, the table as it was to be made.
    const step = Number(new URLSearchParams(window.location.search).get("step"));
    go(deal, Number.isInteger(step) && step > 0 ? step : 0);
  }

  // For the browser tests and the curious: where the replay stands.
  window.medianaReplay = {
    position: () => ({ deal, step: pos, failed }),
    analysis: () => analysis,
    polling: () => polling !== null,
    atEnd,
  };

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})(window.Mediana);
