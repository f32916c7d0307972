/* The replay viewer: every step of the hand is in the page (#replay-data, computed on the
 * server by replaying the actions with the engine); stepping only redraws from it.
 * Tiles are cloned from the server-rendered tile partials in <template id="rv-tiles">.
 * Keys: ← → step, Home/End first/last, space play/pause. */
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
      fill(el.querySelector("[data-rack]"), f.racks[s], true, hl);
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
    const comment = root.querySelector(`.rv-comments li[data-step="${step}"]`);
    const cpuNow = q(".rv-cpu-now");
    if (comment) comment.classList.add("current");
    if (cpuNow) {
      // the commentary of this move, beside the table (once it has arrived)
      cpuNow.hidden = !comment;
      cpuNow.className = "rv-cpu-now" + (comment ? " " + (comment.classList.contains("differs") ? "differs" : "same") : "");
      cpuNow.textContent = comment ? describe(comment) : "";
    }
    if (history.replaceState) history.replaceState(null, "", `#move-${step}`);
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

  root.addEventListener("click", (e) => {
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
