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
const rtl = document.documentElement.dir === 'rtl';
// A page in another language than English (or another zone than UTC) gives the day bars' words
// and its zone (StatusPage.astro data-day-words); English UTC pages keep the compact text below.
const words = (() => {
  const raw = document.querySelector<HTMLElement>('[data-day-words]')?.dataset.dayWords;
  if (!raw) return null;
  try {
    return JSON.parse(raw) as { uptime: string; none: string; tz: string };
  } catch {
    return null;
  }
})();
const lang = document.documentElement.lang || 'en';
const dayFormat = words ? new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeZone: 'UTC' }) : null;
const pctFormat = words ? new Intl.NumberFormat(lang, { style: 'percent', minimumFractionDigits: 2, maximumFractionDigits: 2 }) : null;
function dayText(day: number, uptime: string | undefined): string {
  if (!words || !dayFormat || !pctFormat) {
    const date = new Date(day).toISOString().slice(0, 10);
    return `${date} · ${uptime ? `${uptime}% uptime` : 'No data'}`;
  }
  return `${dayFormat.format(day)} · ${uptime ? words.uptime.replace('{p}', pctFormat.format(Number(uptime) / 100)) : words.none}`;
}

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
    // right to left pages run the hours from right to left: the arrow keys follow the eye
    const back = rtl ? 'ArrowRight' : 'ArrowLeft';
    const forth = rtl ? 'ArrowLeft' : 'ArrowRight';
    const next = e.key === back ? i - 1 : e.key === forth ? i + 1 : e.key === 'Home' ? 0 : e.key === 'End' ? blocks.length - 1 : null;
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
    li.setAttribute('aria-label', dayText(first + i * 86_400_000, uptime[i]));
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
