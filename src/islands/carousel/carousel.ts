// The landing page's feature carousel: every slide is in the HTML (shown as a grid without
// JavaScript); this turns it into one slide at a time, advancing every data-interval ms (3000),
// pausing on hover, on focus and with the Pause button, and never moving by itself when the
// visitor prefers reduced motion.
for (const root of document.querySelectorAll<HTMLElement>('[data-carousel]')) {
  const slides = [...root.querySelectorAll<HTMLElement>('[data-slide]')];
  const dots = [...root.querySelectorAll<HTMLButtonElement>('[data-dot]')];
  const toggle = root.querySelector<HTMLButtonElement>('[data-toggle]');
  const interval = Number(root.dataset.interval) || 3000;
  const reduced = window.matchMedia('(prefers-reduced-motion: reduce)');
  let index = 0;
  let timer: ReturnType<typeof setInterval> | undefined;
  let hovered = false;
  let focused = false;
  let stopped = reduced.matches;

  const show = (n: number) => {
    index = (n + slides.length) % slides.length;
    slides.forEach((s, i) => (s.hidden = i !== index));
    dots.forEach((d, i) => d.setAttribute('aria-current', String(i === index)));
    root.dataset.active = String(index);
  };
  const sync = () => {
    clearInterval(timer);
    timer = undefined;
    const running = !stopped && !hovered && !focused;
    root.dataset.state = running ? 'playing' : 'paused';
    if (toggle) {
      toggle.textContent = stopped ? 'Play' : 'Pause';
      toggle.setAttribute('aria-label', stopped ? 'Play the feature carousel' : 'Pause the feature carousel');
    }
    if (running) timer = setInterval(() => show(index + 1), interval);
  };

  root.dataset.enhanced = 'true';
  show(0);
  sync();
  root.addEventListener('pointerenter', () => ((hovered = true), sync()));
  root.addEventListener('pointerleave', () => ((hovered = false), sync()));
  root.addEventListener('focusin', () => ((focused = true), sync()));
  root.addEventListener('focusout', (e) => {
    if (!(e.relatedTarget instanceof Node && root.contains(e.relatedTarget))) {
      focused = false;
      sync();
    }
  });
  root.querySelector('[data-prev]')?.addEventListener('click', () => show(index - 1));
  root.querySelector('[data-next]')?.addEventListener('click', () => show(index + 1));
  dots.forEach((d, i) => d.addEventListener('click', () => show(i)));
  toggle?.addEventListener('click', () => ((stopped = !stopped), sync()));
  reduced.addEventListener('change', () => ((stopped = reduced.matches), sync()));
}
