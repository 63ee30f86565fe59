// The web table: draws the frames the bot's WebSocket sends and sends the player's moves.
// Plain JavaScript, no build step; every text comes from the bot's catalogs ("hello").
"use strict";

(() => {
  const game = document.body.dataset.game;
  const app = document.getElementById("app");
  const SUITS = { c: "♣", d: "♦", h: "♥", s: "♠" };
  const RANKS = { 1: "A", 11: "J", 12: "Q", 13: "K" };
  let words = {};
  let me = null;
  let frame = null;
  let chosen = new Set();
  let said = "";

  if (location.pathname.startsWith("/t/")) {
    // The link's pass is spent: the address bar and the history keep the game's page only.
    history.replaceState(null, "", `/game/${game}`);
  }

  const say = (key, fields = {}) =>
    (words[key] || key).replace(/\{(\w+)\}/g, (all, name) => (name in fields ? fields[name] : all));

  const el = (tag, attrs = {}, ...children) => {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs)) {
      if (value === false || value === null || value === undefined) continue;
      if (name === "text") node.textContent = value;
      else if (name === "on") node.addEventListener("click", value);
      else node.setAttribute(name, value === true ? "" : value);
    }
    for (const child of children) if (child) node.append(child);
    return node;
  };

  const rankText = (rank) => RANKS[rank] || String(rank);
  const cardName = (rank, suit) =>
    suit ? say("card", { rank: words[`rank.${rank}`] || String(rank), suit: say(`suit.${suit}`) }) : say("joker");
  const label = (card) =>
    card.r === 0 && card.as ? say("joker_as", { card: cardName(card.as[0], card.as[1]) }) : cardName(card.r, card.s);

  function face(card, tag, attrs) {
    const shown = card.r === 0 ? "★" : rankText(card.r);
    const suit = card.s ? SUITS[card.s] : card.as && card.as[1] ? SUITS[card.as[1]] : "";
    const colour = card.s || (card.as && card.as[1]) || "j";
    return el(
      tag,
      { class: `card s-${colour}${card.r === 0 ? " joker" : ""}`, "aria-label": label(card), ...attrs },
      el("span", { class: "rank", "aria-hidden": "true", text: shown }),
      el("span", { class: "suit", "aria-hidden": "true", text: suit }),
    );
  }

  function send(move) {
    if (!frame || socket.readyState !== WebSocket.OPEN) return;
    socket.send(JSON.stringify({ t: "move", turn: frame.turn, move }));
  }

  function statusText() {
    if (frame.status !== "active") {
      const winners = frame.winners.length ? ` ${say("winners", { players: frame.winners.join(", ") })}` : "";
      return say("over") + winners;
    }
    const current = frame.seats.find((seat) => seat.current);
    if (me !== null && frame.current === me) return say("your_turn");
    const turn = current ? say("turn_of", { player: current.name }) : "";
    return me === null ? `${say("watching")} ${turn}` : turn;
  }

  function players() {
    const list = el("ol", { class: "seats" });
    for (const seat of frame.seats) {
      const parts = [seat.name, say("cards_in_hand", { count: seat.cards }), say("score", { score: seat.score })];
      if (seat.dealer) parts.push(say("dealer"));
      list.append(el("li", { class: seat.current ? "current" : "", "aria-current": seat.current ? "true" : null, text: parts.join(" · ") }));
    }
    return el("section", { "aria-labelledby": "h-players" }, el("h2", { id: "h-players", text: say("players") }), list);
  }

  function piles() {
    const can = frame.can;
    const stock = el("button", { id: "stock", class: "stock", disabled: !can.stock, on: () => send({ type: "draw" }), text: say("stock", { count: frame.stock }) });
    const pile = el("div", { class: "row pile", role: "list", "aria-label": say("pile") });
    frame.pile.forEach((card, index) => {
      const depth = frame.pile.length - index;
      const takes = can.take.includes(depth);
      const what = depth === 1 ? say("take") : say("take_deep", { card: label(card) });
      const node = takes
        ? face(card, "button", { "data-key": `pile-${index}`, title: what, "aria-label": `${label(card)}: ${what}`, on: () => send({ type: "take", depth }) })
        : face(card, "span", { role: "img" });
      pile.append(el("div", { role: "listitem" }, node));
    });
    const controls = el("div", { class: "row" }, stock);
    if (can.end) controls.append(el("button", { id: "end", on: () => send({ type: "end" }), text: say("end_round") }));
    return el(
      "section",
      { "aria-labelledby": "h-pile" },
      controls,
      el("h2", { id: "h-pile", text: say("pile") }),
      frame.pile.length ? pile : el("p", { text: say("pile_empty") }),
    );
  }

  function melds() {
    const section = el("section", { "aria-labelledby": "h-melds" }, el("h2", { id: "h-melds", text: say("melds") }));
    if (!frame.melds.length) section.append(el("p", { text: say("no_melds") }));
    const laying = frame.can.layoff && chosen.size > 0;
    for (const meld of frame.melds) {
      const name = say("meld_label", { meld: meld.id, owner: meld.owner });
      const cards = el("div", { class: "row", role: "list", "aria-label": name });
      for (const card of meld.cards) cards.append(el("div", { role: "listitem" }, face(card, "span", { role: "img" })));
      const box = el("div", { class: "meld" }, el("h3", { text: name }), cards);
      if (laying) {
        box.append(el("button", { "data-key": `layoff-${meld.id}`, on: () => send({ type: "layoff", meld: meld.id, cards: [...chosen] }), text: say("layoff", { meld: meld.id }) }));
      }
      if (frame.can.swap && chosen.size === 1 && meld.cards.some((card) => card.r === 0)) {
        const card = [...chosen][0];
        box.append(el("button", { "data-key": `swap-${meld.id}`, on: () => send({ type: "swap", meld: meld.id, card }), text: say("swap", { meld: meld.id }) }));
      }
      section.append(box);
    }
    return section;
  }

  function hand() {
    const can = frame.can;
    const cards = el("div", { class: "row hand", role: "group", "aria-labelledby": "h-hand" });
    for (const card of frame.hand) {
      const picked = chosen.has(card.c);
      cards.append(
        face(card, "button", {
          "data-key": `hand-${card.c}`,
          "aria-pressed": picked ? "true" : "false",
          class: `card s-${card.s || "j"}${picked ? " picked" : ""}${frame.drawn.includes(card.c) ? " drawn" : ""}`,
          on: () => {
            if (chosen.has(card.c)) chosen.delete(card.c);
            else chosen.add(card.c);
            draw(`hand-${card.c}`);
          },
        }),
      );
    }
    const one = chosen.size === 1 ? [...chosen][0] : null;
    const controls = el(
      "div",
      { class: "row" },
      el("button", { id: "meld", disabled: !(can.meld && chosen.size >= 3), on: () => send({ type: "meld", cards: [...chosen] }), text: say("meld") }),
      el("button", { id: "discard", disabled: !(one && can.discard.includes(one)), on: () => send({ type: "discard", card: one }), text: say("discard") }),
      el("button", { id: "clear", disabled: chosen.size === 0, on: () => { chosen.clear(); draw("clear"); }, text: say("cancel") }),
    );
    return el("section", { "aria-labelledby": "h-hand" }, el("h2", { id: "h-hand", text: say("hand") }), cards, controls);
  }

  function recent() {
    const list = el("ul", { class: "recent" });
    for (const line of frame.recent) list.append(el("li", { text: line.replace(/^• /, "") }));
    return el("section", { "aria-labelledby": "h-recent" }, el("h2", { id: "h-recent", text: say("recent") }), list);
  }

  // The title, the status line and the refusal line stay put (a screen reader announces a
  // change of their text once); the table below them is drawn anew from each frame.
  const statusLine = document.getElementById("status");
  const saidLine = el("p", { id: "said", role: "alert" });
  const board = el("div", { id: "board" });
  app.append(saidLine, board);

  const setText = (node, text) => {
    if (node.textContent !== text) node.textContent = text;
  };

  function draw(focusKey) {
    const focused = focusKey || (document.activeElement && (document.activeElement.dataset.key || document.activeElement.id));
    setText(saidLine, said);
    if (!frame) return;
    if (frame.t === "lobby") {
      setText(statusLine, say("lobby"));
      board.replaceChildren();
      return;
    }
    const held = new Set(frame.hand.map((card) => card.c));
    chosen = new Set([...chosen].filter((code) => held.has(code)));
    setText(statusLine, statusText());
    board.replaceChildren(players(), piles(), melds());
    if (me !== null) board.append(hand());
    board.append(recent());
    if (focused) {
      const again = board.querySelector(`[data-key="${CSS.escape(focused)}"]`) || document.getElementById(focused);
      if (again && again !== document.activeElement) again.focus();
    }
  }

  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const socket = new WebSocket(`${scheme}//${location.host}/game/${game}/ws`);
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.t === "hello") {
      words = message.words;
      me = message.me;
      document.body.classList.toggle("four", Boolean(message.fourColour));
      return;
    }
    if (message.t === "said") {
      said = message.text;
      setText(saidLine, said);
      return;
    }
    if (frame && frame.t === "table" && message.t === "table" && message.seq < frame.seq) return;
    if (frame && message.turn !== frame.turn) said = "";
    frame = message;
    draw();
  });
  socket.addEventListener("close", () => {
    setText(statusLine, say("lost"));
    document.body.dataset.closed = "true";
  });
})();
