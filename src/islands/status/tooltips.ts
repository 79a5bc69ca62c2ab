// Enhances the server-rendered 24-hour timelines (the blocks and their text already work without
// JavaScript: aria-label, shown on hover by CSS): one positioned tooltip for hover, touch and
// keyboard, and the 90-day bars' per-day text.
// Plain DOM, no framework: the status page's budget is 30 KB for everything it loads.
const tip = document.createElement('div');
tip.className = 'sp-tip';
tip.setAttribute('role', 'status');
tip.setAttribute('aria-live', 'polite');
tip.hidden = true;
document.body.append(tip);
// this tooltip replaces the CSS-only one
document.documentElement.classList.add('js-tips');

let current: HTMLElement | null = null;

function show(block: HTMLElement): void {
  current?.classList.remove('is-active');
  current = block;
  block.classList.add('is-active');
  tip.textContent = block.getAttribute('aria-label') ?? '';
  tip.hidden = false;
  const r = block.getBoundingClientRect();
  const width = tip.offsetWidth;
  const left = Math.min(Math.max(r.left + window.scrollX + r.width / 2 - width / 2, 4), document.documentElement.clientWidth - width - 4);
  tip.style.left = `${left}px`;
  tip.style.top = `${r.top + window.scrollY - tip.offsetHeight - 8}px`;
}

function hide(): void {
  current?.classList.remove('is-active');
  current = null;
  tip.hidden = true;
}

for (const list of document.querySelectorAll<HTMLElement>('[data-timeline]')) {
  const blocks = [...list.querySelectorAll<HTMLElement>('li')];
  const blockOf = (e: Event) => (e.target instanceof HTMLElement ? e.target.closest('li') : null);
  list.addEventListener('pointerover', (e) => {
    const b = blockOf(e);
    if (b) show(b);
  });
  list.addEventListener('pointerdown', (e) => {
    const b = blockOf(e);
    if (b) show(b);
  });
  list.addEventListener('pointerleave', (e) => {
    if (e.pointerType !== 'touch' && document.activeElement !== list) hide();
  });
  list.addEventListener('focus', () => show(current && blocks.includes(current) ? current : blocks[blocks.length - 1]));
  list.addEventListener('blur', hide);
  list.addEventListener('keydown', (e) => {
    const i = current ? blocks.indexOf(current) : blocks.length - 1;
    const next =
      e.key === 'ArrowLeft' ? i - 1 : e.key === 'ArrowRight' ? i + 1 : e.key === 'Home' ? 0 : e.key === 'End' ? blocks.length - 1 : null;
    if (next === null) {
      if (e.key === 'Escape') hide();
      return;
    }
    e.preventDefault();
    show(blocks[Math.min(Math.max(next, 0), blocks.length - 1)]);
  });
}
// The 90-day bars: each day's date and uptime from the list's data attributes.
for (const list of document.querySelectorAll<HTMLElement>('[data-daily]')) {
  const days = [...list.querySelectorAll<HTMLElement>('li')];
  const uptime = (list.dataset.uptime ?? '').split(',');
  const first = Date.parse(list.dataset.first ?? '');
  days.forEach((li, i) => {
    const date = new Date(first + i * 86_400_000).toISOString().slice(0, 10);
    li.setAttribute('aria-label', `${date} · ${uptime[i] ? `${uptime[i]}% uptime` : 'No data'}`);
  });
  list.addEventListener('pointerover', (e) => {
    const li = e.target instanceof HTMLElement ? e.target.closest('li') : null;
    if (li) show(li);
  });
  list.addEventListener('pointerdown', (e) => {
    const li = e.target instanceof HTMLElement ? e.target.closest('li') : null;
    if (li) show(li);
  });
  list.addEventListener('pointerleave', (e) => {
    if (e.pointerType !== 'touch') hide();
  });
}
document.addEventListener('pointerdown', (e) => {
  if (!(e.target instanceof Element) || !e.target.closest('[data-timeline], [data-daily]')) hide();
});
