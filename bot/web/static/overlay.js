"use strict";
// The overlay page: draws each snapshot the server pushes (server-sent events). Every text
// is set with textContent, never as markup: what players typed stays text on the stream.
(() => {
  const board = document.getElementById("board");
  const card = document.getElementById("card");
  const RETRY_MS = 3000;
  let shownCard = "";
  let source = null;

  function line(spans, tag) {
    const element = document.createElement(tag || "p");
    for (const [text, style] of spans) {
      const span = document.createElement(style === "c" ? "code" : "span");
      if (style === "b" || style === "s") span.className = style;
      span.textContent = text;
      element.append(span);
    }
    return element;
  }

  function embed(view) {
    const part = document.createElement("article");
    if (view.title.length) part.append(line(view.title, "h2"));
    for (const spans of view.lines) part.append(line(spans));
    for (const field of view.fields) {
      const section = document.createElement("section");
      section.append(line(field.name, "h3"));
      for (const spans of field.lines) section.append(line(spans));
      part.append(section);
    }
    if (view.footer.length) part.append(line(view.footer, "footer"));
    return part;
  }

  function draw(data) {
    document.documentElement.lang = data.lang;
    board.replaceChildren(embed(data.board));
    const key = JSON.stringify(data.card);
    if (key !== shownCard) {
      shownCard = key;
      card.replaceChildren();
      card.classList.remove("in");
      if (data.card.length) {
        card.append(line([[data.last, ""]], "h2"), ...data.card.map(embed));
        void card.offsetWidth; // restart the animation on the new card
        card.classList.add("in");
      }
    }
    document.body.dataset.state = "live";
    document.body.dataset.drawn = String(Date.now());
  }

  function stop() {
    source.close();
    board.replaceChildren();
    card.replaceChildren();
    document.body.dataset.state = "revoked";
  }

  function connect() {
    source = new EventSource(location.pathname.replace(/\/$/, "") + "/events");
    source.onmessage = (event) => draw(JSON.parse(event.data));
    source.addEventListener("revoked", stop);
    source.onerror = () => {
      // The browser retries a dropped stream itself; a refused one (the bot restarting
      // behind a proxy) is tried again from here.
      if (source.readyState === EventSource.CLOSED && document.body.dataset.state !== "revoked") {
        document.body.dataset.state = "connecting";
        setTimeout(connect, RETRY_MS);
      }
    };
  }

  connect();
})();
