/* The replay viewer: every step of the hand is in the page (#replay-data, computed on the
 * server by replaying the actions with the engine); stepping only redraws from it.
 * Tiles are cloned from the server-rendered tile partials in <template id="rv-tiles">.
 * Keys: ← → step, Home/End first/last, space play/pause.
 * The expert's analysis arrives as a fragment (#rv-analysis); its graph's points and its
 * move numbers jump to the move ([data-goto]); "Retry my mistakes" starts retry mode. */
(function () {
  "use strict";
  const root = document.getElementById("review");
  const dataEl = document.getElementById("replay-data");
  if (!root || !dataEl) return;
  const data = JSON.parse(dataEl.textContent);
  const frames = data.frames;
  const events = data.events;
  const last = frames.length - 1;
  const proto = {};
  document.getElementById("rv-tiles").content.querySelectorAll(".tile").forEach((t) => {
    proto[t.dataset.id] = t;
  });
  const q = (sel) => root.querySelector(sel);
  const seats = Array.from(root.querySelectorAll(".rv-seat"));
  const timeline = q(".rv-timeline");
  const slider = q(".rv-slider");
  const stepOut = q("[data-testid=rv-step]");
  const nowOut = q(".rv-now");
  const playBtn = q("[data-nav=play]");
  let step = 0;
  let timer = null;
  let retry = null; // retry mode: {seat, questions, i, picked}

  function tile(id, small, hl) {
    const el = proto[id].cloneNode(true);
    if (small) el.classList.add("small");
    if (id === hl) el.classList.add("rv-hl");
    return el;
  }

  function fill(box, ids, small, hl) {
    const frag = document.createDocumentFragment();
    ids.forEach((id) => frag.appendChild(tile(id, small, hl)));
    box.replaceChildren(frag);
  }

  function render() {
    const f = frames[step];
    const ev = step > 0 ? events[step - 1] : null;
    const hl = ev ? ev.tile : null;
    seats.forEach((el) => {
      const s = Number(el.dataset.seat);
      const rack = el.querySelector("[data-rack]");
      if (retry && s !== retry.seat) {
        // retry mode shows what the retried seat saw: the other racks face down
        const backs = document.createDocumentFragment();
        f.racks[s].forEach(() => {
          const b = document.createElement("span");
          b.className = "tile small face-down";
          backs.appendChild(b);
        });
        rack.replaceChildren(backs);
      } else {
        fill(rack, f.racks[s], true, retry ? null : hl);
      }
      if (retry && s === retry.seat) markRetryRack(rack);
      const disc = f.discards[s];
      fill(el.querySelector("[data-discards]"), disc, true, hl);
      el.classList.toggle("turn", !f.over && f.turn === s);
      el.classList.toggle("acted", !!ev && ev.seat === s);
      el.querySelector("[data-opened]").hidden = !f.opened[s];
      const pts = f.totals[s];
      el.querySelector("[data-points]").textContent = pts ? (pts > 0 ? "+" : "") + pts : "";
    });
    q("[data-pile]").textContent = f.pile;
    const take = q("[data-takeable]");
    if (f.takeable !== null && f.takeable !== undefined) {
      take.replaceChildren(tile(f.takeable, false, hl));
    } else {
      const empty = document.createElement("span");
      empty.className = "tile empty";
      take.replaceChildren(empty);
    }
    const melds = q("[data-melds]");
    const frag = document.createDocumentFragment();
    f.melds.forEach((m) => {
      const box = document.createElement("div");
      box.className = "meld";
      box.dataset.owner = m.owner;
      m.tiles.forEach((id) => box.appendChild(tile(id, true, hl)));
      frag.appendChild(box);
    });
    melds.replaceChildren(frag);

    stepOut.textContent = step;
    slider.value = step;
    root.querySelectorAll("li.current").forEach((li) => li.classList.remove("current"));
    const li = timeline.querySelector(`li[data-step="${step}"]`);
    if (li) {
      li.classList.add("current");
      const btn = li.querySelector("button");
      nowOut.textContent = btn ? btn.textContent.replace(/^\s*\d+\s*/, "") : "";
      const top = li.offsetTop;
      if (top < timeline.scrollTop || top + li.offsetHeight > timeline.scrollTop + timeline.clientHeight) {
        timeline.scrollTop = top - timeline.clientHeight / 2;
      }
    }
    const decision = root.querySelector(`.rv-decisions li[data-step="${step}"]`);
    if (decision) decision.classList.add("current");
    const comment = root.querySelector(`.rv-comments li[data-step="${step}"]`);
    const cpuNow = q(".rv-cpu-now");
    if (comment) comment.classList.add("current");
    if (cpuNow) {
      // the commentary of this move, beside the table (once it has arrived)
      cpuNow.hidden = !comment;
      cpuNow.className = "rv-cpu-now" + (comment ? " " + (comment.classList.contains("differs") ? "differs" : "same") : "");
      cpuNow.textContent = comment ? describe(comment) : "";
    }
    if (history.replaceState && !retry) history.replaceState(null, "", `#move-${step}`);
  }

  function describe(comment) {
    const choices = comment.querySelector(".rv-choices").cloneNode(true);
    choices.querySelectorAll(".visually-hidden").forEach((e) => e.remove());
    const mark = comment.querySelector(".rv-mark").textContent.trim();
    const reason = comment.querySelector(".rv-reason").textContent.trim();
    return `${mark} ${choices.textContent.trim()} — ${reason}`;
  }

  function go(n) {
    const next = Math.max(0, Math.min(last, n));
    if (next === step && frames.length > 1) return;
    step = next;
    render();
    if (step === last) pause();
  }

  function pause() {
    if (timer) clearInterval(timer);
    timer = null;
    root.classList.remove("playing");
  }

  function play() {
    if (step >= last) go(0);
    root.classList.add("playing");
    timer = setInterval(() => go(step + 1), 700);
  }

  function toggle() {
    if (timer) pause();
    else play();
  }

  /* Retry mode: the position before each mistake of the analysed seat (the questions
   * come with the analysis fragment, #rv-retry-data); a pick (a rack tile = discard it,
   * or a move button) first, then the expert's choice and why. */
  const panel = document.getElementById("rv-retry");

  function markRetryRack(rack) {
    const q = retry.questions[retry.i];
    rack.querySelectorAll(".tile").forEach((t) => {
      const id = Number(t.dataset.id);
      const opt = q.options.find((o) => o.type === "discard" && o.ids.includes(id));
      if (opt && !retry.picked) {
        t.classList.add("rv-pickable");
        t.setAttribute("role", "button");
        t.tabIndex = 0;
      }
      if (retry.picked) {
        if (retry.picked.type === "discard" && retry.picked.ids.includes(id)) t.classList.add("rv-picked");
        if (q.best_type === "discard" && q.best_ids.includes(id)) t.classList.add("rv-expert");
      }
    });
  }

  function setText(sel, text) {
    panel.querySelector(sel).textContent = text;
  }

  function ask() {
    const q = retry.questions[retry.i];
    retry.picked = null;
    const texts = panel.querySelector("[data-text-of]").dataset;
    const count = texts.textOf.replace("%(n)s", retry.i + 1).replace("%(total)s", retry.questions.length);
    setText("[data-retry-count]", `· ${count} · ${texts.textBefore.replace("%(n)s", q.step)}`);
    const askEl = panel.querySelector("[data-retry-ask]");
    const discards = q.options.some((o) => o.type === "discard");
    const draws = q.options.some((o) => o.type === "draw" || o.type === "take");
    askEl.textContent = discards ? askEl.dataset.askDiscard : draws ? askEl.dataset.askDraw : askEl.dataset.askOther;
    const moves = panel.querySelector("[data-retry-moves]");
    const proto = panel.querySelector("template[data-move-button]").content.firstElementChild;
    const frag = document.createDocumentFragment();
    q.options.forEach((o, n) => {
      if (o.type === "discard") return;
      const b = proto.cloneNode(true);
      b.textContent = o.text;
      b.dataset.retryPick = n;
      frag.appendChild(b);
    });
    moves.replaceChildren(frag);
    panel.querySelector("[data-retry-reveal]").hidden = true;
    panel.querySelector("[data-retry-next]").hidden = true;
    panel.querySelector("[data-retry-done]").hidden = true;
    step = Math.max(0, q.step - 1);
    render();
    // the table and the question in view: all of the felt where it fits above the panel,
    // else from its centre (the discard to take, the seat's own rack, then the question)
    const felt = document.getElementById("rv-felt");
    const fits = felt.offsetHeight + panel.offsetHeight <= window.innerHeight;
    (fits ? felt : felt.querySelector(".rv-center")).scrollIntoView({ block: "start" });
  }

  function pick(opt) {
    if (!retry || retry.picked) return;
    const q = retry.questions[retry.i];
    retry.picked = opt;
    setText("[data-retry-yours]", opt.text);
    setText("[data-retry-yours-value]", opt.value_text);
    const cls = panel.querySelector("[data-retry-yours-class]");
    cls.textContent = opt.class_label;
    cls.className = "rv-cls-badge rv-cls-" + opt.class;
    setText("[data-retry-best]", q.best_text);
    setText("[data-retry-best-value]", q.best_value);
    setText("[data-retry-why]", q.why);
    setText("[data-retry-played]", q.played_text);
    setText("[data-retry-played-value]", q.played_value);
    panel.querySelector("[data-retry-reveal]").hidden = false;
    panel.querySelectorAll("[data-retry-pick]").forEach((b) => {
      b.disabled = true;
      if (Number(b.dataset.retryPick) === q.options.indexOf(opt)) b.classList.add("rv-picked");
    });
    const more = retry.i + 1 < retry.questions.length;
    panel.querySelector("[data-retry-next]").hidden = !more;
    panel.querySelector("[data-retry-done]").hidden = more;
    render();
    panel.scrollIntoView({ block: "nearest" });
  }

  function startRetry() {
    const dataNode = document.getElementById("rv-retry-data");
    const box = document.getElementById("rv-analysis");
    if (!panel || !dataNode || !box) return;
    const questions = JSON.parse(dataNode.textContent);
    if (!questions.length) return;
    pause();
    retry = { seat: Number(box.dataset.seat), questions, i: 0, picked: null };
    root.classList.add("retrying");
    panel.hidden = false;
    root.querySelectorAll(".rv-controls button, .rv-slider").forEach((b) => (b.disabled = true));
    ask();
  }

  function stopRetry() {
    retry = null;
    root.classList.remove("retrying");
    panel.hidden = true;
    root.querySelectorAll(".rv-controls button, .rv-slider").forEach((b) => (b.disabled = false));
    if (playBtn) playBtn.disabled = last === 0;
    render();
  }

  function onRetryClick(e) {
    if (e.target.closest("[data-retry-start]")) {
      startRetry();
      return true;
    }
    if (!retry) return false;
    if (e.target.closest("[data-retry-stop]")) {
      stopRetry();
      return true;
    }
    if (e.target.closest("[data-retry-next]")) {
      retry.i += 1;
      ask();
      return true;
    }
    const q = retry.questions[retry.i];
    const b = e.target.closest("[data-retry-pick]");
    if (b) {
      pick(q.options[Number(b.dataset.retryPick)]);
      return true;
    }
    const t = e.target.closest(".rv-pickable");
    if (t) {
      const id = Number(t.dataset.id);
      const opt = q.options.find((o) => o.type === "discard" && o.ids.includes(id));
      if (opt) pick(opt);
      return true;
    }
    return true; // nothing else moves while retrying
  }

  root.addEventListener("click", (e) => {
    if (onRetryClick(e)) return;
    const nav = e.target.closest("[data-nav]");
    if (nav) {
      const what = nav.dataset.nav;
      if (what === "play") return toggle();
      pause();
      if (what === "first") go(0);
      else if (what === "prev") go(step - 1);
      else if (what === "next") go(step + 1);
      else if (what === "last") go(last);
      return;
    }
    const to = e.target.closest("[data-goto]");
    if (to) {
      if (to.hasAttribute("href")) e.preventDefault(); // the graph's links: no history entry
      pause();
      go(Number(to.dataset.goto));
    }
  });
  slider.addEventListener("input", () => {
    pause();
    go(Number(slider.value));
  });
  document.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (retry) {
      // a focused rack tile is picked with Enter or space; the replay does not step
      const t = e.target.closest && e.target.closest(".rv-pickable");
      if (t && (e.key === "Enter" || e.key === " ")) {
        e.preventDefault();
        t.click();
      }
      return;
    }
    const tag = (e.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "select" || tag === "textarea") return;
    const keys = { ArrowLeft: -1, ArrowRight: 1 };
    if (e.key in keys) {
      e.preventDefault();
      pause();
      go(step + keys[e.key]);
    } else if (e.key === "Home") {
      e.preventDefault();
      pause();
      go(0);
    } else if (e.key === "End") {
      e.preventDefault();
      pause();
      go(last);
    } else if (e.key === " " && tag !== "button" && tag !== "a") {
      e.preventDefault();
      toggle();
    }
  });
  // commentary arrives later (htmx): mark the current step in it too
  document.body.addEventListener("htmx:afterSwap", () => render());

  const m = /^#move-(\d+)$/.exec(location.hash);
  step = m ? Math.max(0, Math.min(last, Number(m[1]))) : 0;
  render();
  if (playBtn) playBtn.disabled = last === 0;
})();
