// Dragging cards with SortableJS: between a board's columns and within one, among a backlog's
// sprints, and the rows of a helpdesk project's request types. A drop posts what the card's "Move to…" form posts — one request, the same operation —
// naming the neighbour it landed beside. A refused move goes back where it was, with the reason
// said at the top of the page; a move whose transition asks for something opens its screen.
(() => {
  const body = document.body;
  const say = (answer) => {
    const flash = document.getElementById('flash');
    const message = answer.querySelector('.flash');
    if (flash && message) flash.replaceChildren(document.adoptNode(message));
  };
  /** The card beside this one in its list (SortableJS puts other elements among them while dragging). */
  const cardBeside = (card, way) => {
    let next = card[way];
    while (next && !next.dataset.key) next = next[way];
    return next;
  };
  const keyBeside = (card, way) => cardBeside(card, way)?.dataset.key ?? null;

  // where the card was when pressed: it goes back there when the move is refused
  let chosen = null;
  let origin = null;
  const settle = (card, moved) => {
    card.removeAttribute('aria-busy');
    delete body.dataset.dragging;
    // the live refresh waited for the drop: now it may show the board as it is
    document.dispatchEvent(new Event('atrium:dropped'));
    // and a move done is drawn as the server has it (each card's "Move to…" offers its new places)
    if (moved) document.dispatchEvent(new Event('atrium:moved'));
  };

  const drop = async (event) => {
    const card = event.item;
    const to = event.to;
    const from = origin;
    origin = null;
    if (!from || (from.list === to && from.next === cardBeside(card, 'nextElementSibling'))) return settle(card, false);
    const form = new URLSearchParams({ key: card.dataset.key, [to.dataset.field]: to.dataset.value });
    const before = keyBeside(card, 'nextElementSibling');
    const after = keyBeside(card, 'previousElementSibling');
    if (before) form.set('before', before);
    else if (after) form.set('after', after);
    const place = to.closest('[data-moves]');
    for (const [name, value] of Object.entries(place.dataset)) if (name.startsWith('keep')) form.set(name.slice(4).toLowerCase(), value);
    card.setAttribute('aria-busy', 'true');
    let moved = false;
    const back = () => from.list.insertBefore(card, from.next?.parentNode === from.list ? from.next : null);
    try {
      const response = await fetch(place.dataset.moves, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'HX-Request': 'true', 'X-CSRF-Token': place.dataset.csrf },
        body: form,
      });
      const redirect = response.headers.get('HX-Redirect');
      if (redirect) return location.assign(redirect);
      if (!response.ok) back();
      moved = response.ok;
      const answer = new DOMParser().parseFromString(await response.text(), 'text/html');
      const screen = answer.querySelector('dialog');
      if (screen) {
        const shown = document.adoptNode(screen);
        body.append(shown);
        shown.addEventListener('close', () => shown.remove());
        shown.showModal();
        shown.querySelector('select, input:not([type=hidden]), textarea')?.focus();
      } else say(answer);
    } catch (_) {
      back();
      const flash = document.getElementById('flash');
      if (flash) {
        const box = document.createElement('div');
        box.className = 'flash error';
        box.setAttribute('role', 'alert');
        box.textContent = 'Atrium could not be reached; the card was not moved. Check the connection and try again.';
        flash.replaceChildren(box);
      }
    }
    settle(card, moved);
  };

  const bind = () => {
    if (!window.Sortable) return;
    for (const list of document.querySelectorAll('[data-drop]')) {
      if (list.dataset.bound) continue;
      list.dataset.bound = 'yes';
      window.Sortable.create(list, {
        group: list.dataset.drop,
        draggable: '[data-key]',
        // pointer events rather than the browser's own drag and drop: the same on a phone's touch as with a mouse
        forceFallback: true,
        // the image that follows the pointer lives outside the lists, never taken for a card in them
        fallbackOnBody: true,
        // the card's own controls ("Move to…", a row's buttons) stay clickable
        filter: '.move, [data-no-drag]',
        preventOnFilter: false,
        // held from the press on, so that a live refresh cannot take the card from under the pointer
        onChoose: (event) => {
          body.dataset.dragging = 'yes';
          chosen = { list: event.from, next: cardBeside(event.item, 'nextElementSibling') };
        },
        onUnchoose: (event) => {
          if (!origin) settle(event.item, false);
        },
        onStart: () => {
          origin = chosen;
        },
        onEnd: drop,
      });
    }
  };
  bind();
  // a live refresh draws the lists anew, and so does an htmx answer (a row moved up or down)
  document.addEventListener('atrium:refreshed', bind);
  document.addEventListener('htmx:afterSettle', bind);
})();
