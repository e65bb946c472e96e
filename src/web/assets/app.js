// Atrium's own script: what makes the pages quicker, never what makes them work (every form
// works without it). Live updates, the command palette and the keyboard shortcuts. No eval, no
// inline handlers: the pages' CSP is script-src 'self'.
(() => {
  const body = document.body;

  /** Whether the member is typing: single-key shortcuts never fire then, and the live refresh waits. */
  const typing = (el) =>
    !!el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName)) && el.type !== 'submit' && el.type !== 'button';

  // --- live updates -------------------------------------------------------------------------
  // A page that names what it shows (data-events on <body>) listens to /events and, when that
  // changes, fetches itself again and swaps in its header and main, so a ticket, a board or the
  // notifications stay current while open without a reload that would lose the scroll. An
  // `unread` event updates the header's count in place. What the member is working in is not
  // swapped away: a form being filled in (a card's "Move to…" brought in place), or an open menu, waits until the focus
  // leaves it; a form opened in place waits for htmx to swap it; a card being dragged waits for its drop.
  const topic = body.dataset.events;
  if (topic && window.EventSource) {
    let running = false;
    let again = false;
    let waiting = false;
    /** The form or open menu in main holding the focus while the member works in it, else null. */
    const workingIn = () => {
      const el = document.activeElement;
      if (!el?.closest('main')) return null;
      // a menu (a <details>) focused to be opened, or open
      const menu = el.closest('details');
      if (menu) return menu;
      return typing(el) ? el.closest('form') || el : null;
    };
    // a form opened in place (a field being changed), or one on its way (an htmx request from the
    // main part), keeps the page busy until htmx swaps it
    // (or just swapped in, until it settles: a "Move to…" form's select is focused then)
    const inPlace = () => !!document.querySelector('main form.in-place, main .htmx-request, main .htmx-added');
    /** Whether the refresh must wait; if so, it is asked again when the member is done. */
    const held = () => {
      const box = body.dataset.dragging ? null : workingIn();
      const swapping = inPlace();
      if (!body.dataset.dragging && !box && !swapping) return false;
      if (waiting) return true;
      waiting = true;
      const resume = () => {
        if (!waiting) return;
        waiting = false;
        refresh();
      };
      if (body.dataset.dragging) {
        document.addEventListener('atrium:dropped', resume, { once: true });
        return true;
      }
      if (swapping) document.addEventListener('htmx:afterSettle', resume, { once: true });
      if (!box) return true;
      const leave = (event) => {
        if (box.contains(event.relatedTarget)) return;
        box.removeEventListener('focusout', leave);
        resume();
      };
      box.addEventListener('focusout', leave);
      return true;
    };
    const refresh = async () => {
      if (running) {
        again = true;
        return;
      }
      if (held()) return;
      running = true;
      try {
        const response = await fetch(location.href, { credentials: 'same-origin', headers: { accept: 'text/html' } });
        if (!response.ok) return;
        const text = await response.text();
        // work begun while the page was fetched (a drag, a menu opened, a form opened in place): it waits, and is fetched again after
        if (held()) return;
        const next = new DOMParser().parseFromString(text, 'text/html');
        // a card's "Move to…" link with the focus keeps it in the page drawn again: Enter still opens it
        const focused = document.activeElement?.matches('main a.move') ? document.activeElement.getAttribute('href') : null;
        for (const part of ['header', 'main']) {
          const now = document.querySelector(part);
          const fresh = next.querySelector(part);
          if (now && fresh) {
            const adopted = document.adoptNode(fresh);
            // the message the member was just given stays: their own change is often what refreshed the page
            const said = now.querySelector('#flash');
            const place = said && said.childElementCount > 0 ? adopted.querySelector('#flash') : null;
            if (place) place.replaceWith(said);
            now.replaceWith(adopted);
            if (window.htmx) window.htmx.process(adopted);
          }
        }
        if (focused) [...document.querySelectorAll('main a.move')].find((a) => a.getAttribute('href') === focused)?.focus();
        body.dataset.refreshed = String(Number(body.dataset.refreshed || 0) + 1);
        document.dispatchEvent(new Event('atrium:refreshed'));
      } catch (_) {
        // the next change tries again
      } finally {
        running = false;
        if (again) {
          again = false;
          refresh();
        }
      }
    };
    // a card moved on this page (drag.js): the lists are drawn again as the server now has them
    document.addEventListener('atrium:moved', refresh);
    const source = new EventSource(`/events?topic=${encodeURIComponent(topic)}`);
    source.addEventListener('change', refresh);
    source.addEventListener('unread', (event) => {
      const count = document.getElementById('unread-count');
      if (count) {
        count.textContent = event.data;
        count.hidden = event.data === '0';
      }
    });
    source.addEventListener('ready', () => {
      body.dataset.listening = 'yes';
    });
  }

  // --- htmx: a refused change is said where the member is --------------------------------------
  document.addEventListener('htmx:responseError', (event) => {
    const flash = document.getElementById('flash');
    if (!flash) return;
    const status = event.detail.xhr ? event.detail.xhr.status : 0;
    flash.replaceChildren();
    const box = document.createElement('div');
    box.className = 'flash error';
    box.setAttribute('role', 'alert');
    box.textContent =
      status >= 500
        ? 'Something went wrong on our side; nothing was changed. Try again in a moment.'
        : 'This could not be done. Reload the page and try again.';
    flash.append(box);
  });
  document.addEventListener('htmx:sendError', () => {
    const flash = document.getElementById('flash');
    if (!flash) return;
    const box = document.createElement('div');
    box.className = 'flash error';
    box.setAttribute('role', 'alert');
    box.textContent = 'Atrium could not be reached; nothing was changed. Check the connection and try again.';
    flash.replaceChildren(box);
  });

  // --- the command palette and the shortcuts -------------------------------------------------
  const palette = document.getElementById('palette');
  const shortcuts = document.getElementById('shortcuts');
  const search = document.getElementById('site-search');

  const openPalette = () => {
    if (!palette || palette.open) return;
    if (shortcuts?.open) shortcuts.close();
    palette.showModal();
    const input = palette.querySelector('input[type=search]');
    if (input) {
      input.value = '';
      input.focus();
      input.dispatchEvent(new Event('input', { bubbles: true }));
    }
  };
  const openShortcuts = () => {
    if (!shortcuts || shortcuts.open) return;
    if (palette?.open) palette.close();
    shortcuts.showModal();
  };

  for (const opener of document.querySelectorAll('[data-opens]')) {
    opener.hidden = false;
    opener.addEventListener('click', () => (opener.dataset.opens === 'palette' ? openPalette() : openShortcuts()));
  }

  if (palette) {
    // Enter goes to the first result; arrows move among the results.
    const links = () => [...palette.querySelectorAll('#palette-results a')];
    palette.addEventListener('keydown', (event) => {
      const list = links();
      const at = list.indexOf(document.activeElement);
      if (event.key === 'ArrowDown' && list.length) {
        event.preventDefault();
        list[Math.min(at + 1, list.length - 1)].focus();
      }
      if (event.key === 'ArrowUp' && list.length) {
        event.preventDefault();
        if (at <= 0) palette.querySelector('input[type=search]').focus();
        else list[at - 1].focus();
      }
    });
    const form = palette.querySelector('form[role=search]');
    if (form) {
      form.addEventListener('submit', (event) => {
        const first = links()[0];
        if (first) {
          event.preventDefault();
          location.assign(first.href);
        }
      });
    }
  }

  document.addEventListener('keydown', (event) => {
    if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'k') {
      event.preventDefault();
      openPalette();
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
    if (typing(event.target) || document.querySelector('dialog[open]')) return;
    if (event.key === '/' && search) {
      event.preventDefault();
      search.focus();
      search.select();
      return;
    }
    if (event.key === '?') {
      event.preventDefault();
      openShortcuts();
      return;
    }
    if (event.key === 'c') {
      const create = document.querySelector('a[data-shortcut="c"]');
      if (create) {
        event.preventDefault();
        location.assign(create.href);
      }
    }
  });

  // --- a text the server completed (a mention): focused, the caret after what was put in -------
  const caretAtEnd = (el) => {
    el.removeAttribute('data-caret-end');
    el.setSelectionRange(el.value.length, el.value.length);
  };
  document.addEventListener('focusin', (event) => {
    if (event.target.matches?.('textarea[data-caret-end]')) caretAtEnd(event.target);
  });
  document.addEventListener('htmx:load', (event) => {
    const el = event.detail.elt;
    if (!el.matches?.('textarea[data-caret-end]')) return;
    if (document.activeElement === el) caretAtEnd(el);
    else el.focus();
  });
})();
